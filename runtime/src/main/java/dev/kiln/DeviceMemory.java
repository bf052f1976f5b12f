package dev.kiln;

/**
 * A device's memory, as {@link Device#memory()} reads it.
 *
 * @param arrays the device arrays allocated on the device and not yet freed
 * @param arrayBytes the bytes those arrays hold
 * @param deviceBytes what the device has: on Vulkan the size of its largest device-local memory
 *     heap, on the CPU backend the Java heap's maximum
 * @param availableBytes what of it this process may still allocate: on Vulkan the driver's budget
 *     for the heap less this process's use of it (VK_EXT_memory_budget where the driver has it,
 *     else VMA's estimate), on the CPU backend the Java heap's unused part
 */
public record DeviceMemory(int arrays, long arrayBytes, long deviceBytes, long availableBytes) {}
