package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** CUDA samples histogram256: per-workgroup histograms of bytes in workgroup memory, with atomics, then written out. */
final class Histogram256 {
  static final double TOLERANCE = 0;
  static final int BINS = 256;
  static final int WORDS = 30_011;
  static final int GROUPS = 24;

  @Kernel(workgroup = 192)
  static void histogram256Kernel(int[] partialHistograms, int[] data, int dataCount) {
    int[] sHist = Gpu.sharedInts(BINS);
    for (int i = Gpu.localId(0); i < BINS; i += 192) {
      sHist[i] = 0;
    }
    Gpu.barrier();
    for (int pos = Gpu.globalId(0); pos < dataCount; pos += 192 * Gpu.numWorkgroups(0)) {
      int word = data[pos];
      Gpu.atomicAdd(sHist, (word >>> 0) & 0xFF, 1);
      Gpu.atomicAdd(sHist, (word >>> 8) & 0xFF, 1);
      Gpu.atomicAdd(sHist, (word >>> 16) & 0xFF, 1);
      Gpu.atomicAdd(sHist, (word >>> 24) & 0xFF, 1);
    }
    Gpu.barrier();
    for (int bin = Gpu.localId(0); bin < BINS; bin += 192) {
      partialHistograms[Gpu.workgroupId(0) * BINS + bin] = sHist[bin];
    }
  }

  static final int histogram256KernelGrid = GROUPS * 192;

  static Object[] histogram256KernelArgs(Random r) {
    int[] data = new int[WORDS];
    for (int i = 0; i < WORDS; i++) {
      data[i] = r.nextInt();
    }
    return new Object[] {new int[GROUPS * BINS], data, WORDS};
  }
}
