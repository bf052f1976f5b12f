package dev.kiln.matrix;

import dev.kiln.abi.LaunchAbi;

/**
 * The operations on cooperative matrices as the CPU backend runs them; kernels call them through
 * {@link dev.kiln.Gpu}, whose methods of the same names are documented there. Each invocation of a
 * subgroup computes the whole tile, the same in each, since every operand must be the same in all
 * of a subgroup's invocations (the processor checks that).
 *
 * <p>A load or store first checks that the tile's offset and stride are multiples of 16 bytes, as
 * Vulkan's matrix loads need (else {@link IllegalArgumentException}), then the tile's whole extent
 * against the array, and throws {@link ArrayIndexOutOfBoundsException} for the lowest index below
 * 0, else the highest one past the end, before it touches an element; the Vulkan backend reports
 * the same.
 */
public final class Matrices {
  /** The rows and columns of every tile (M = N = K = 16). */
  public static final int SIDE = LaunchAbi.MATRIX_SIDE;

  private static final int HALVES_PER_16_BYTES = LaunchAbi.MATRIX_ALIGNMENT_BYTES / Short.BYTES;
  private static final int FLOATS_PER_16_BYTES = LaunchAbi.MATRIX_ALIGNMENT_BYTES / Float.BYTES;

  private Matrices() {}

  /**
   * The A tile at {@code offset} of {@code bits}.
   *
   * @param bits the values' bits
   * @param offset the index of element (0, 0)
   * @param stride the distance between rows or columns
   * @param element how to read the bits
   * @param layout row- or column-major
   * @return the tile
   */
  public static MatrixA loadA(
      short[] bits, int offset, int stride, MatrixElement element, MatrixLayout layout) {
    return new MatrixA(loadHalves(bits, offset, stride, element, layout));
  }

  /**
   * The B tile at {@code offset} of {@code bits}.
   *
   * @param bits the values' bits
   * @param offset the index of element (0, 0)
   * @param stride the distance between rows or columns
   * @param element how to read the bits
   * @param layout row- or column-major
   * @return the tile
   */
  public static MatrixB loadB(
      short[] bits, int offset, int stride, MatrixElement element, MatrixLayout layout) {
    return new MatrixB(loadHalves(bits, offset, stride, element, layout));
  }

  /**
   * The accumulator tile at {@code offset} of {@code values}.
   *
   * @param values the floats
   * @param offset the index of element (0, 0)
   * @param stride the distance between rows or columns
   * @param layout row- or column-major
   * @return the tile
   */
  public static MatrixAccumulator loadAccumulator(
      float[] values, int offset, int stride, MatrixLayout layout) {
    checkAlignment(offset, stride, FLOATS_PER_16_BYTES);
    checkExtent(values.length, offset, stride);
    float[] tile = new float[SIDE * SIDE];
    for (int row = 0; row < SIDE; row++) {
      for (int column = 0; column < SIDE; column++) {
        tile[row * SIDE + column] = values[layout.index(offset, stride, row, column)];
      }
    }
    return new MatrixAccumulator(new Tile(null, tile));
  }

  /**
   * The accumulator tile with every element {@code value}.
   *
   * @param value the elements
   * @return the tile
   */
  public static MatrixAccumulator filled(float value) {
    float[] tile = new float[SIDE * SIDE];
    java.util.Arrays.fill(tile, value);
    return new MatrixAccumulator(new Tile(null, tile));
  }

  /**
   * {@code a * b + c}: element (i, j) is {@code c[i][j]} plus {@code a[i][k] * b[k][j]} for k from
   * 0 to 15 in turn, each product exact, each sum rounded to a float. (Products of float16s are
   * always exact in a float; products of bfloat16s are, unless they leave the float's normal range,
   * where they round as a float product does.) A and B hold the same element type.
   *
   * @param a the left factor
   * @param b the right factor
   * @param c the accumulator
   * @return the sum
   */
  public static MatrixAccumulator multiplyAdd(MatrixA a, MatrixB b, MatrixAccumulator c) {
    if (a.element() != b.element()) {
      throw new IllegalArgumentException(
          "a multiply-add of "
              + a.element()
              + " and "
              + b.element()
              + " tiles: A and B hold one element type");
    }
    float[] left = a.tile.values();
    float[] right = b.tile.values();
    float[] sum = c.tile.values().clone();
    for (int i = 0; i < SIDE; i++) {
      for (int j = 0; j < SIDE; j++) {
        float s = sum[i * SIDE + j];
        for (int k = 0; k < SIDE; k++) {
          s += left[i * SIDE + k] * right[k * SIDE + j];
        }
        sum[i * SIDE + j] = s;
      }
    }
    return new MatrixAccumulator(new Tile(null, sum));
  }

  /**
   * How far a device's product of inner dimension {@code inner} may be from the exact (fp64) one,
   * where the sum of the magnitudes of its products is {@code magnitude}: recursive summation errs
   * by at most {@code inner * u} times that, to first order; with four units per addition (u =
   * 2^-22, for adders that truncate with fewer bits than a float) and two more additions (the
   * accumulator's start, the stored result), {@code (inner + 2) 2^-22 magnitude} (docs/KERNELS.md).
   *
   * @param inner the inner dimension, the number of products summed
   * @param magnitude the sum of the products' magnitudes
   * @return the bound
   */
  public static double errorBound(int inner, double magnitude) {
    return (inner + 2) * 0x1p-22 * magnitude;
  }

  /**
   * Each element times {@code factor}, rounded to a float.
   *
   * @param c the tile
   * @param factor the factor
   * @return the product
   */
  public static MatrixAccumulator scale(MatrixAccumulator c, float factor) {
    float[] tile = c.tile.values().clone();
    for (int i = 0; i < tile.length; i++) {
      tile[i] *= factor;
    }
    return new MatrixAccumulator(new Tile(null, tile));
  }

  /**
   * The elementwise sum, each rounded to a float.
   *
   * @param x a tile
   * @param y a tile
   * @return the sum
   */
  public static MatrixAccumulator add(MatrixAccumulator x, MatrixAccumulator y) {
    float[] tile = x.tile.values().clone();
    float[] other = y.tile.values();
    for (int i = 0; i < tile.length; i++) {
      tile[i] += other[i];
    }
    return new MatrixAccumulator(new Tile(null, tile));
  }

  /**
   * Writes {@code c} at {@code offset} of {@code values}.
   *
   * @param c the tile
   * @param values the floats
   * @param offset the index of element (0, 0)
   * @param stride the distance between rows or columns
   * @param layout row- or column-major
   */
  public static void store(
      MatrixAccumulator c, float[] values, int offset, int stride, MatrixLayout layout) {
    checkAlignment(offset, stride, FLOATS_PER_16_BYTES);
    checkExtent(values.length, offset, stride);
    float[] tile = c.tile.values();
    for (int row = 0; row < SIDE; row++) {
      for (int column = 0; column < SIDE; column++) {
        values[layout.index(offset, stride, row, column)] = tile[row * SIDE + column];
      }
    }
  }

  private static Tile loadHalves(
      short[] bits, int offset, int stride, MatrixElement element, MatrixLayout layout) {
    checkAlignment(offset, stride, HALVES_PER_16_BYTES);
    checkExtent(bits.length, offset, stride);
    float[] tile = new float[SIDE * SIDE];
    for (int row = 0; row < SIDE; row++) {
      for (int column = 0; column < SIDE; column++) {
        tile[row * SIDE + column] = element.decode(bits[layout.index(offset, stride, row, column)]);
      }
    }
    return new Tile(element, tile);
  }

  /**
   * Vulkan's matrix loads and stores need a tile's first element and its stride on 16 bytes
   * (VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986): the offset, then the stride, must be a
   * multiple of {@code multiple} elements.
   */
  private static void checkAlignment(int offset, int stride, int multiple) {
    if (offset % multiple != 0) {
      throw new IllegalArgumentException(LaunchAbi.MATRIX_ALIGNMENT_MESSAGE + offset);
    }
    if (stride % multiple != 0) {
      throw new IllegalArgumentException(LaunchAbi.MATRIX_ALIGNMENT_MESSAGE + stride);
    }
  }

  /**
   * The lowest and highest index of a tile at {@code offset} with {@code stride} (either layout:
   * they span the same indices) must lie in an array of {@code length}.
   */
  private static void checkExtent(int length, int offset, int stride) {
    long span = (long) (SIDE - 1) * stride;
    long lowest = offset + Math.min(0, span);
    long highest = offset + Math.max(0, span) + SIDE - 1;
    if (lowest < 0) {
      throw outOfBounds(lowest, length);
    }
    if (highest >= length) {
      throw outOfBounds(highest, length);
    }
  }

  private static ArrayIndexOutOfBoundsException outOfBounds(long index, int length) {
    return new ArrayIndexOutOfBoundsException(
        "Index " + index + " out of bounds for length " + length);
  }
}
