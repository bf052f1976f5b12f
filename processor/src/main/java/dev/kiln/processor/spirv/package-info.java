/**
 * The SPIR-V writer: a program to a Vulkan compute module, with Java's semantics spelled out where
 * GPU instructions differ (exact division and remainder, roundings), bounds checks and the fault
 * buffer, launch values from the push-constant block, and vector accesses. Capabilities and
 * extensions beyond Vulkan 1.1's core are declared through their {@link dev.kiln.abi.DeviceFeature}
 * rows, which the module's description lists.
 */
package dev.kiln.processor.spirv;
