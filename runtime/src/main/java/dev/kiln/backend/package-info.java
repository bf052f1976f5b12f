/**
 * What a backend is: {@link dev.kiln.backend.Backend} and its buffers, batches and capacity, the
 * {@link dev.kiln.backend.Launch} it runs, and the descriptions the processor wrote of kernels
 * ({@link dev.kiln.backend.KernelDescriptions}). The Vulkan and CPU backends implement it; nothing
 * here knows either.
 */
package dev.kiln.backend;
