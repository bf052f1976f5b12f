package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** SHOC SpMV: spmv_csr_scalar_kernel, one row of a CSR matrix per invocation. */
final class SpmvCsr {
  static final double TOLERANCE = 0;
  static final int DIM = 2001;

  @Kernel(workgroup = 128)
  static void spmvCsrScalar(float[] val, int[] cols, int[] rowDelimiters, int dim, float[] vec, float[] out) {
    int myRow = Gpu.globalId(0);
    if (myRow < dim) {
      float t = 0.0f;
      int start = rowDelimiters[myRow];
      int end = rowDelimiters[myRow + 1];
      for (int j = start; j < end; j++) {
        int col = cols[j];
        t += val[j] * vec[col];
      }
      out[myRow] = t;
    }
  }

  static final int spmvCsrScalarGrid = DIM;

  static Object[] spmvCsrScalarArgs(Random r) {
    int[] delimiters = new int[DIM + 1];
    for (int row = 0; row < DIM; row++) {
      delimiters[row + 1] = delimiters[row] + r.nextInt(9);
    }
    int nonZeros = delimiters[DIM];
    float[] val = new float[nonZeros];
    int[] cols = new int[nonZeros];
    for (int k = 0; k < nonZeros; k++) {
      val[k] = r.nextInt(64) / 8f;
      cols[k] = r.nextInt(DIM);
    }
    float[] vec = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      vec[i] = r.nextInt(64) / 8f;
    }
    return new Object[] {val, cols, delimiters, DIM, vec, new float[DIM]};
  }
}
