/**
 * The contract between the code the Kiln processor generates and the runtime that runs it, defined
 * once and read by both: {@link dev.kiln.abi.LaunchAbi} (bindings, the push-constant block, fault
 * words, the CPU twins' names and method type), {@link dev.kiln.abi.KernelSpec} and {@link
 * dev.kiln.abi.NumericType} (what a launcher tells the runtime about a kernel), {@link
 * dev.kiln.abi.KernelDescription} (what the processor tells it about a compiled body, beside the
 * module, through {@link dev.kiln.abi.DescriptionCodec}): the {@link dev.kiln.abi.DeviceFeature}s
 * it needs, its {@link dev.kiln.abi.LaunchBound}s and {@link dev.kiln.abi.LaunchProof}s over {@link
 * dev.kiln.abi.LaunchForm}s of a launch's {@link dev.kiln.abi.LaunchValues}, its {@link
 * dev.kiln.abi.SplitForm} and {@link dev.kiln.abi.AliasConflict}s; and what the CPU twins call:
 * {@link dev.kiln.abi.CpuFaults} (how a twin reports a fault), {@link dev.kiln.abi.ArmFault} (a
 * fused group's later arm's fault) and {@link dev.kiln.abi.SubgroupLanes} (subgroup operations
 * across a subgroup's lanes). Generated code and Kiln use it; users do not, and it has no
 * compatibility promise.
 */
package dev.kiln.abi;
