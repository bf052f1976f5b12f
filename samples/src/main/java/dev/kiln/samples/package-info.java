/**
 * The samples: kernels a user would write (saxpy, a polynomial, a workgroup scan, histograms,
 * reductions, a stencil, a tiled matrix product, the fused image chain {@code develop}) and
 * {@link dev.kiln.samples.Main}, the README's first command, which runs them on the best device
 * and checks every result against plain Java.
 */
package dev.kiln.samples;
