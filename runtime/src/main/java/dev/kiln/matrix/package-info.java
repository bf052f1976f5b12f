/**
 * Cooperative matrices: 16 x 16 tiles that the invocations of a subgroup hold together, which
 * {@link dev.kiln.Gpu#multiplyAdd} multiplies on the GPU's matrix units (tensor cores). A kernel
 * loads them with {@code Gpu.loadMatrixA}, {@code loadMatrixB} and {@code loadAccumulator}, stores
 * accumulators with {@code Gpu.storeAccumulator}, and keeps them in local variables only.
 *
 * <p>These are the one place where results are not Java's bits: a device adds the products of a
 * multiply-add in its own order and precision. The classes here are the CPU backend's
 * implementation and the definition the tests hold devices to (docs/KERNELS.md, "Cooperative
 * matrices"): each product of two 16-bit values is exact in a float, and they are added to the
 * accumulator one k after another, each sum rounded to a float.
 */
package dev.kiln.matrix;
