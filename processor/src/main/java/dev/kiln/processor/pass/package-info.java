/**
 * Passes that rewrite programs: access inference, the launch gate, labelled jumps, vectorization,
 * the unrolling of loops over private arrays; {@code pass.fuse} fuses the arms of a group.
 */
package dev.kiln.processor.pass;
