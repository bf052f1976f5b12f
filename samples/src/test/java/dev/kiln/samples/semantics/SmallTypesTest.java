package dev.kiln.samples.semantics;

import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import corpus.SmallTypesKernels;
import dev.kiln.BooleanArray;
import dev.kiln.ByteArray;
import dev.kiln.Device;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** byte, short, char and boolean values and buffers: Vulkan against the CPU backend, bit for bit. */
class SmallTypesTest extends BothDevices {
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 3, 63, 65, 4099})
  void narrowingMatchesJava(int n) {
    Object[][] results = new Object[2][];
    Device[] devices = {cpu, vulkan};
    for (int d = 0; d < 2; d++) {
      Random random = new Random(n);
      float[] in = new float[n];
      byte[] codes = new byte[n];
      short[] wide = new short[n];
      char[] units = new char[n];
      boolean[] flags = new boolean[n];
      for (int i = 0; i < n; i++) {
        in[i] = i % 7 == 0 ? Float.NaN : random.nextFloat(-1e6f, 1e6f) / (1 + i % 1000);
        codes[i] = (byte) random.nextInt();
        wide[i] = (short) random.nextInt();
        units[i] = (char) random.nextInt();
        flags[i] = random.nextBoolean();
      }
      int[] out = new int[4 * n];
      SmallTypesKernels.narrowing(devices[d], n, in, codes, wide, units, flags, out);
      results[d] = new Object[] {codes, wide, units, flags, out};
    }
    assertArrayEquals((byte[]) results[0][0], (byte[]) results[1][0], "bytes");
    assertArrayEquals((short[]) results[0][1], (short[]) results[1][1], "shorts");
    assertArrayEquals((char[]) results[0][2], (char[]) results[1][2], "chars");
    assertArrayEquals((boolean[]) results[0][3], (boolean[]) results[1][3], "booleans");
    assertArrayEquals((int[]) results[0][4], (int[]) results[1][4], "ints");
  }

  /** Bytes kept on the device between launches (ByteArray), and from Java arrays; booleans round trip. */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 5, 1001})
  void thresholdOnDeviceArrays(int n) {
    byte[] pixels = new byte[n];
    new Random(n).nextBytes(pixels);
    byte[] expected = new byte[n];
    for (int i = 0; i < n; i++) {
      expected[i] = (pixels[i] & 0xff) >= 128 ? (byte) 255 : 0;
    }
    for (Device device : new Device[] {cpu, vulkan}) {
      try (ByteArray in = device.upload(pixels); ByteArray mask = device.bytes(n)) {
        SmallTypesKernels.threshold(device, n, in, mask, 128);
        assertArrayEquals(expected, mask.toArray(), "mask on " + device.backend());
      }
      byte[] mask = new byte[n];
      SmallTypesKernels.threshold(device, n, pixels, mask, 128);
      assertArrayEquals(expected, mask, "mask from Java arrays on " + device.backend());
    }
    try (BooleanArray flags = vulkan.upload(new boolean[] {true, false, true})) {
      assertArrayEquals(new boolean[] {true, false, true}, flags.toArray(), "booleans round trip");
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 17, 1000})
  void switchOnCharAndEnhancedForOverNarrowBuffers(int n) {
    Random random = new Random(n);
    char[] text = new char[n];
    short[] weights = new short[n];
    String alphabet = "aeiou 0123456789xyzAZ\u00e9";
    for (int i = 0; i < n; i++) {
      text[i] = alphabet.charAt(random.nextInt(alphabet.length()));
      weights[i] = (short) random.nextInt();
    }
    int[][] counts = new int[2][4];
    long[][] totals = new long[2][1];
    Device[] devices = {cpu, vulkan};
    for (int d = 0; d < 2; d++) {
      SmallTypesKernels.letterClasses(devices[d], 1, text, weights, counts[d], totals[d]);
    }
    assertArrayEquals(counts[0], counts[1], "letter classes");
    assertArrayEquals(totals[0], totals[1], "sum of shorts");
    assertEquals(n, java.util.Arrays.stream(counts[0]).sum());
  }
}
