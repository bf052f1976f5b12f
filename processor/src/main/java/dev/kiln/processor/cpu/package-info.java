/**
 * The CPU twins: bytecode, written with ASM from the same IR as the SPIR-V, that runs a range of
 * workgroups as plain loops over the invocations, for the runtime's CPU backend. {@code TwinMethod}
 * writes the loops over workgroups and ids, {@code TwinRegions} the work-item and subgroup loops
 * between barriers and subgroup operations, {@code TwinCode} statements and expressions, {@code
 * TwinFrame} holds the method's slots ({@code TwinPrologue} sets them), {@code Bytecode} the
 * instructions they share.
 */
package dev.kiln.processor.cpu;
