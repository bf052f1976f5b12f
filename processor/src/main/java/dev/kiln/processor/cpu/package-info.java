/**
 * The CPU twins: bytecode, written with ASM from the same IR as the SPIR-V, that runs a range of
 * workgroups as plain loops over the invocations, for the runtime's CPU backend.
 */
package dev.kiln.processor.cpu;
