/**
 * The Vulkan backend, and the only package that imports LWJGL: instance and device selection, VMA
 * buffers, compute pipelines and their on-disk cache, command recording with the pipeline barriers
 * a batch needs, GPU timestamps and the fault buffer.
 */
package dev.kiln.vulkan;
