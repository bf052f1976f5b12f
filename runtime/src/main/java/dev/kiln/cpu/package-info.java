/**
 * The CPU backend: runs each kernel and group through the CPU twin the processor generated, in
 * chunks of workgroups on a fork-join pool (workgroup by workgroup where it waits at barriers), or,
 * with {@code -Dkiln.cpu=java}, the kernel methods themselves; a group as its fused twin or its
 * arms tile by tile, whichever it measured faster.
 */
package dev.kiln.cpu;
