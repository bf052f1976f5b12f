/**
 * The contract between the code the Kiln processor generates and the runtime that runs it, defined
 * once and read by both: {@link dev.kiln.abi.LaunchAbi} (bindings, the push-constant block, fault
 * words, the CPU twins' names and method type), {@link dev.kiln.abi.KernelSpec} and
 * {@link dev.kiln.abi.NumericType} (what a launcher tells the runtime about a kernel) and
 * {@link dev.kiln.abi.CpuFaults} (how a twin reports a fault). Generated code and Kiln use it;
 * users do not, and it has no compatibility promise.
 */
package dev.kiln.abi;
