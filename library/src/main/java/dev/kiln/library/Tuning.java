package dev.kiln.library;

/**
 * The library's tuned numbers in one place: chosen from measurements on the H200 (PERFORMANCE.md)
 * and valid on every Vulkan device and the CPU backend.
 */
final class Tuning {
  /**
   * Workgroups of the histogram's persistent grid: 8 per multiprocessor of the H200's 132, where
   * the sample {@code ByteHistogram} ran fastest of the grids measured.
   */
  static final int HISTOGRAM_WORKGROUPS = 1056;

  /**
   * Copies of the histogram's counters per workgroup, each shared by a quarter of its subgroups.
   */
  static final int HISTOGRAM_COPIES = 4;

  /**
   * Int counters a workgroup keeps in its memory: 16 KiB, the least Vulkan guarantees. Past that, a
   * histogram counts into the buffer itself.
   */
  static final int WORKGROUP_COUNTERS = 4096;

  private Tuning() {}
}
