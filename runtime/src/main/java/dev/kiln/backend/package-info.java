/**
 * What a backend is: {@link dev.kiln.backend.Backend} and its buffers, batches and capacity, the
 * {@link dev.kiln.backend.Launch} it runs, and the facts a kernel's SPIR-V module tells
 * ({@link dev.kiln.backend.KernelModule}). The Vulkan and CPU backends implement it; nothing here
 * knows either.
 */
package dev.kiln.backend;
