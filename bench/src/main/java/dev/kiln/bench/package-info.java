/**
 * The GPU benchmark suite: {@link dev.kiln.bench.GpuSuite} times Kiln's kernels against
 * hand-written GLSL twins with GPU timestamps (PyTorch's figures come from {@code torch_suite.py}),
 * and writes the tables and plots of {@code docs/PERFORMANCE.md}.
 */
package dev.kiln.bench;
