package dev.kiln.library;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.Device;
import dev.kiln.DeviceSet;
import dev.kiln.FloatArray;
import dev.kiln.ShardedArray;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ShardedGemm}: each device's rows are, bit for bit, the rows of {@link Gemm}'s product on
 * that device alone, on two CPU backends, on three shards of two, and on Vulkan with the CPU
 * backend; layouts it cannot split are refused.
 */
class ShardedGemmTest extends LibraryDevices {
  /**
   * {@code Gemm} on {@code device} alone, whole matrices: float factors, or float16 where {@code
   * halves}.
   */
  private static float[] alone(
      Device device, int m, int n, int k, Object a, Object b, boolean transB, float[] c0) {
    try (FloatArray c = device.upload(c0)) {
      if (a instanceof float[] floats) {
        try (FloatArray da = device.upload(floats);
            FloatArray db = device.upload((float[]) b)) {
          Gemm.floats(
              device, m, n, k, 1.5f, da, false, db, transB, 0.5f, c, Gemm.Epilogue.forDevice());
        }
      } else {
        try (var da = device.upload((short[]) a);
            var db = device.upload((short[]) b)) {
          Gemm.shorts(
              device,
              m,
              n,
              k,
              1.5f,
              da,
              false,
              db,
              transB,
              0.5f,
              c,
              Gemm.Epilogue.forDevice(),
              false);
        }
      }
      return c.toArray();
    }
  }

  private static float[] sharded(
      DeviceSet set, int m, int n, int k, Object a, Object b, boolean transB, float[] c0) {
    try (ShardedArray<float[]> c = ShardedArray.upload(set, c0, 0, n)) {
      if (a instanceof float[] floats) {
        try (ShardedArray<float[]> sa = ShardedArray.upload(set, floats, 0, Math.max(k, 1));
            ShardedArray<float[]> sb = ShardedArray.replicate(set, (float[]) b)) {
          ShardedGemm.floats(set, m, n, k, 1.5f, sa, sb, transB, 0.5f, c);
        }
      } else {
        try (ShardedArray<short[]> sa = ShardedArray.upload(set, (short[]) a, 0, Math.max(k, 1));
            ShardedArray<short[]> sb = ShardedArray.replicate(set, (short[]) b)) {
          ShardedGemm.shorts(set, m, n, k, 1.5f, sa, sb, transB, 0.5f, c, false);
        }
      }
      return c.toArray();
    }
  }

  private static short[] halves(float[] values) {
    short[] bits = new short[values.length];
    for (int i = 0; i < values.length; i++) {
      bits[i] = Float.floatToFloat16(values[i]);
    }
    return bits;
  }

  @ParameterizedTest(name = "{0} x {1} x {2}, transB {3}, float16 {4}")
  @CsvSource({
    "401, 37, 129, false, false",
    "7, 260, 33, true, false",
    "333, 65, 17, false, true",
    "2, 9, 130, true, true"
  })
  void eachDevicesRowsAreItsOwnProductsRows(int m, int n, int k, boolean transB, boolean half) {
    Random random = new Random(m * 31L + n * 7L + k);
    float[] a = RowsTest.values(random, m * k);
    float[] b = RowsTest.values(random, k * n);
    float[] c0 = RowsTest.values(random, m * n);
    Object fa = half ? halves(a) : a;
    Object fb = half ? halves(b) : b;
    // each backend's product alone; two CPU backends give the same bits
    java.util.Map<String, float[]> expectedOn = new java.util.HashMap<>();
    for (Device device : devices()) {
      expectedOn.put(device.backend(), alone(device, m, n, k, fa, fb, transB, c0));
    }
    try (Device otherCpu = Device.open("cpu")) {
      for (List<Device> devices :
          List.of(
              List.of(cpu, otherCpu),
              List.of(otherCpu, cpu, otherCpu),
              List.of(vulkan, cpu),
              List.of(cpu, vulkan))) {
        try (DeviceSet set = DeviceSet.of(devices)) {
          float[] actual = sharded(set, m, n, k, fa, fb, transB, c0);
          int[] rowBounds = new int[devices.size() + 1];
          for (int d = 0; d <= devices.size(); d++) {
            rowBounds[d] = (int) ((long) m * d / devices.size());
          }
          for (int d = 0; d < devices.size(); d++) {
            float[] expected = expectedOn.get(devices.get(d).backend());
            assertArrayEquals(
                Arrays.copyOfRange(expected, rowBounds[d] * n, rowBounds[d + 1] * n),
                Arrays.copyOfRange(actual, rowBounds[d] * n, rowBounds[d + 1] * n),
                "rows "
                    + rowBounds[d]
                    + ".."
                    + rowBounds[d + 1]
                    + " on "
                    + devices.get(d)
                    + " of "
                    + devices);
          }
        }
      }
    }
  }

  @Test
  void layoutsItCannotSplitAreRefused() {
    int m = 300;
    int n = 20;
    int k = 30;
    try (Device otherCpu = Device.open("cpu");
        DeviceSet set = DeviceSet.of(cpu, otherCpu);
        ShardedArray<float[]> a = ShardedArray.upload(set, new float[m * k], 0, k);
        ShardedArray<float[]> b = ShardedArray.replicate(set, new float[k * n]);
        ShardedArray<float[]> shardedB = ShardedArray.upload(set, new float[k * n], 0);
        ShardedArray<float[]> c = ShardedArray.zeros(set, float[].class, m * n, 0)) {
      assertEquals(
          "device 1's shard of c starts at element 4096 and of a at 4500: not the first element of one row"
              + " of each. Fix: shard a in blocks of k (30) elements and c in blocks of n (20), as many rows each",
          assertThrows(
                  IllegalArgumentException.class,
                  () -> ShardedGemm.floats(set, m, n, k, 1f, a, b, false, 0f, c))
              .getMessage());
      assertEquals(
          "a holds 9000 elements and c 6000; a 301 x 30 by 30 x 20 product needs 9030 and 6020",
          assertThrows(
                  IllegalArgumentException.class,
                  () -> ShardedGemm.floats(set, m + 1, n, k, 1f, a, b, false, 0f, c))
              .getMessage());
      assertEquals(
          "m, n and k must not be negative: -1, 20, 30",
          assertThrows(
                  IllegalArgumentException.class,
                  () -> ShardedGemm.floats(set, -1, n, k, 1f, a, b, false, 0f, c))
              .getMessage());
      try (DeviceSet other = DeviceSet.of(otherCpu, cpu)) {
        assertEquals(
            "an array lives on "
                + set.devices()
                + ", and this product runs on "
                + other.devices()
                + ". Fix: make the arrays on the set the product runs on",
            assertThrows(
                    IllegalArgumentException.class,
                    () -> ShardedGemm.floats(other, m, n, k, 1f, a, b, false, 0f, c))
                .getMessage());
      }
      assertEquals(
          "a row-split product takes a and c sharded by rows and b replicated. Fix: make b with"
              + " ShardedArray.replicate, a and c with ShardedArray.upload or zeros in blocks of a row",
          assertThrows(
                  IllegalArgumentException.class,
                  () -> ShardedGemm.floats(set, m, n, k, 1f, a, shardedB, false, 0f, c))
              .getMessage());
    }
  }
}
