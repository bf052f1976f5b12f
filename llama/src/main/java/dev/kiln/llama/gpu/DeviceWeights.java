package dev.kiln.llama.gpu;

import dev.kiln.Device;
import dev.kiln.FloatArray;
import dev.kiln.ShortArray;
import dev.kiln.llama.model.TensorNames;
import dev.kiln.llama.weights.SafeTensors;
import dev.kiln.llama.weights.TensorInfo;
import dev.kiln.llama.weights.TensorType;
import java.io.IOException;
import java.util.Arrays;

/**
 * Where a {@link DeviceModel}'s weights come from: a checkpoint's tensors, uploaded, or seeded
 * random values made on the device (for benchmarks: no file, no host memory, no transfer).
 */
public sealed interface DeviceWeights {
  /** Whether the matrices are bfloat16 (else float16). */
  boolean bfloat();

  /**
   * A 16-bit matrix of {@code cols} columns: the rows of the tensors {@code names}, {@code rows[i]}
   * of the i-th, one after the other.
   */
  ShortArray matrix(Device device, int cols, String[] names, int[] rows) throws IOException;

  /** The float vector {@code name} of {@code length} elements (a norm's weight). */
  FloatArray vector(Device device, String name, int length) throws IOException;

  /**
   * A checkpoint's weights, all float16 or all bfloat16 (the embedding's type).
   *
   * @throws IllegalArgumentException where the embedding is F32
   */
  static DeviceWeights of(SafeTensors tensors) {
    TensorType type = tensors.tensor(TensorNames.EMBEDDING).type();
    if (type == TensorType.F32) {
      throw new IllegalArgumentException(
          "the checkpoint's weights are F32; the device model reads F16 or BF16. Fix: use a float16"
              + " or bfloat16 checkpoint");
    }
    return new Checkpoint(tensors, type);
  }

  /**
   * Random weights made on the device from {@code seed}: each matrix element an odd multiple of
   * 1/512 in (-1/8, 1/8) times {@code 4 / sqrt(cols)} (never 0), each norm weight 1.
   */
  static DeviceWeights random(long seed, boolean bfloat) {
    return new Random(seed, bfloat, 0);
  }

  /**
   * {@link #random(long, boolean)} with about one matrix element in {@code zeroEvery} zero, as a
   * real checkpoint holds zeros and float16 subnormals (for benchmarks of what decodes them).
   *
   * @param zeroEvery a power of two from 2 up, or 0 for no zeros
   * @throws IllegalArgumentException for any other {@code zeroEvery}
   */
  static DeviceWeights random(long seed, boolean bfloat, int zeroEvery) {
    return new Random(seed, bfloat, zeroEvery);
  }

  /** A checkpoint's tensors, checked against the shapes asked for and uploaded. */
  record Checkpoint(SafeTensors tensors, TensorType type) implements DeviceWeights {
    @Override
    public boolean bfloat() {
      return type == TensorType.BF16;
    }

    @Override
    public ShortArray matrix(Device device, int cols, String[] names, int[] rows)
        throws IOException {
      int length = 0;
      for (int r : rows) {
        length += r * cols;
      }
      short[] all = new short[length];
      int at = 0;
      for (int i = 0; i < names.length; i++) {
        TensorInfo tensor = tensors.tensor(names[i]);
        if (tensor.type() != type || !Arrays.equals(tensor.shape(), new long[] {rows[i], cols})) {
          throw new IllegalArgumentException(
              "tensor "
                  + tensor
                  + " is not "
                  + type
                  + "["
                  + rows[i]
                  + ", "
                  + cols
                  + "] as the"
                  + " embedding and config.json say. Fix: use the config.json of this checkpoint");
        }
        short[] part = SafeTensors.shorts(tensor);
        System.arraycopy(part, 0, all, at, part.length);
        at += part.length;
      }
      return device.upload(all);
    }

    @Override
    public FloatArray vector(Device device, String name, int length) throws IOException {
      TensorInfo tensor = tensors.tensor(name);
      if (tensor.elements() != length) {
        throw new IllegalArgumentException(tensor + " does not have " + length + " elements");
      }
      return device.upload(SafeTensors.floats(tensor));
    }
  }

  /** Seeded random weights, made by a kernel on the device; one in {@code zeroEvery} zero. */
  record Random(long seed, boolean bfloat, int zeroEvery) implements DeviceWeights {
    /**
     * Checks {@code zeroEvery}.
     *
     * @throws IllegalArgumentException unless it is a power of two from 2 up, or 0
     */
    public Random {
      if (zeroEvery != 0 && (zeroEvery < 2 || Integer.bitCount(zeroEvery) != 1)) {
        throw new IllegalArgumentException(
            "zeros one in "
                + zeroEvery
                + ": the random weights take a power of two from 2 up, or 0. Fix: pass 2, 4, ...,"
                + " 512, ... or 0");
      }
    }

    @Override
    public ShortArray matrix(Device device, int cols, String[] names, int[] rows) {
      int length = 0;
      for (int r : rows) {
        length += r * cols;
      }
      ShortArray matrix = device.shorts(length);
      int salt = (int) (seed * 31 + String.join(",", names).hashCode());
      LlamaKernelsKernels.random(
          device,
          length,
          matrix,
          salt,
          (float) (4 / Math.sqrt(cols)),
          bfloat ? 1 : 0,
          zeroEvery == 0 ? 0 : zeroEvery - 1);
      return matrix;
    }

    @Override
    public FloatArray vector(Device device, String name, int length) {
      float[] ones = new float[length];
      Arrays.fill(ones, 1f);
      return device.upload(ones);
    }
  }
}
