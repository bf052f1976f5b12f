package dev.kiln.samples;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import dev.kiln.matrix.MatrixA;
import dev.kiln.matrix.MatrixAccumulator;
import dev.kiln.matrix.MatrixB;
import dev.kiln.matrix.MatrixElement;
import dev.kiln.matrix.MatrixLayout;

/**
 * A dense layer of a multilayer perceptron, {@code y = gelu(x w + bias)}, in one kernel: the product
 * on the tensor cores (float16 inputs, their bits in {@code short[]}s, float sums), and the bias and
 * GELU applied to it in workgroup memory before it is written, a fused epilogue. Each workgroup
 * computes a 32 x 32 block of {@code y}: its first subgroup multiplies 2 x 2 tiles and stores them
 * into a {@link Gpu#sharedFloats} block; after the barrier every invocation finishes its share of
 * the block's elements, consecutive invocations on consecutive columns.
 */
public final class DenseLayer {
  /** Rows and columns of {@code y} per workgroup. */
  public static final int BLOCK = 32;
  /** Invocations per workgroup. */
  public static final int WORKGROUP = 32;
  private static final int T = 16;
  /** sqrt(2 / pi), GELU's tanh form's scale. */
  private static final float GELU_SCALE = 0.7978846f;
  private static final float GELU_CUBE = 0.044715f;

  private DenseLayer() {}

  /**
   * {@code y = gelu(x w + bias)} for row-major {@code x} (rows x inner), {@code w} (inner x columns)
   * and {@code y}; rows and columns multiples of 32, inner of 16; one workgroup per 32 x 32 block,
   * {@code rows * columns / 32} invocations.
   */
  @Kernel(workgroup = {WORKGROUP})
  static void layer(@Buffer(Access.READ) short[] x, @Buffer(Access.READ) short[] w, @Buffer(Access.READ) float[] bias,
      @Buffer(Access.WRITE) float[] y, int rows, int inner, int columns) {
    float[] block = Gpu.sharedFloats(BLOCK * BLOCK);
    int blocksPerRow = columns / BLOCK;
    int row = Gpu.workgroupId(0) / blocksPerRow * BLOCK;
    int column = Gpu.workgroupId(0) % blocksPerRow * BLOCK;
    if (Gpu.subgroupId() == 0 && row < rows) {
      MatrixAccumulator c00 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c01 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c10 = Gpu.fillAccumulator(0f);
      MatrixAccumulator c11 = Gpu.fillAccumulator(0f);
      for (int k = 0; k < inner; k += T) {
        MatrixA x0 = Gpu.loadMatrixA(x, row * inner + k, inner, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
        MatrixA x1 = Gpu.loadMatrixA(x, (row + T) * inner + k, inner, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
        MatrixB w0 = Gpu.loadMatrixB(w, k * columns + column, columns, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
        MatrixB w1 = Gpu.loadMatrixB(w, k * columns + column + T, columns, MatrixElement.FLOAT16,
            MatrixLayout.ROW_MAJOR);
        c00 = Gpu.multiplyAdd(x0, w0, c00);
        c01 = Gpu.multiplyAdd(x0, w1, c01);
        c10 = Gpu.multiplyAdd(x1, w0, c10);
        c11 = Gpu.multiplyAdd(x1, w1, c11);
      }
      Gpu.storeAccumulator(c00, block, 0, BLOCK, MatrixLayout.ROW_MAJOR);
      Gpu.storeAccumulator(c01, block, T, BLOCK, MatrixLayout.ROW_MAJOR);
      Gpu.storeAccumulator(c10, block, T * BLOCK, BLOCK, MatrixLayout.ROW_MAJOR);
      Gpu.storeAccumulator(c11, block, T * BLOCK + T, BLOCK, MatrixLayout.ROW_MAJOR);
    }
    Gpu.barrier();
    if (row < rows) {
      for (int e = Gpu.localId(0); e < BLOCK * BLOCK; e += WORKGROUP) {
        int r = e / BLOCK;
        int c = e % BLOCK;
        y[(row + r) * columns + column + c] = gelu(block[e] + bias[column + c]);
      }
    }
  }

  /** GELU in its tanh form: {@code v/2 (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3)))}. */
  static float gelu(float v) {
    return 0.5f * v * (1f + Gpu.tanh(GELU_SCALE * (v + GELU_CUBE * v * v * v)));
  }
}
