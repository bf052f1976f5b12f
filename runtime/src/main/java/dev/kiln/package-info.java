/**
 * Kiln's API: open a {@link dev.kiln.Device}, hold data in device arrays ({@link
 * dev.kiln.FloatArray} and its siblings), launch kernels through the launchers the processor
 * generates, one by one or recorded into a {@link dev.kiln.Batch}, over a count or a {@link
 * dev.kiln.Grid}; kernels call the {@link dev.kiln.Gpu} intrinsics.
 */
package dev.kiln;
