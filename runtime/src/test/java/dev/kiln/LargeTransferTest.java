package dev.kiln;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Uploads and downloads large enough to be copied in pieces on several threads (4 MiB a piece) and,
 * on a GPU whose memory the host maps uncached, through staging on the queue: every element type,
 * at lengths that are no multiple of the pieces, whole and in part.
 */
class LargeTransferTest {
  private static final int LENGTH = (9 << 20) + 13; // 9 M elements: 2 to 9 pieces of every type

  @Test
  void largeArraysComeBackBitForBitWholeAndInPart() {
    Random random = new Random(12);
    try (Device vulkan = TestVulkan.open()) {
      byte[] bytes = new byte[LENGTH];
      random.nextBytes(bytes);
      try (ByteArray array = vulkan.upload(bytes)) {
        assertArrayEquals(bytes, array.toArray());
      }
      float[] floats = new float[LENGTH];
      long[] longs = new long[LENGTH];
      boolean[] booleans = new boolean[LENGTH];
      char[] chars = new char[LENGTH];
      for (int i = 0; i < LENGTH; i++) {
        floats[i] = Float.intBitsToFloat(random.nextInt());
        longs[i] = random.nextLong();
        booleans[i] = random.nextBoolean();
        chars[i] = (char) random.nextInt();
      }
      try (FloatArray array = vulkan.upload(floats)) {
        float[] back = array.toArray();
        for (int i = 0; i < LENGTH; i++) {
          if (Float.floatToRawIntBits(back[i]) != Float.floatToRawIntBits(floats[i])) {
            throw new AssertionError("float " + i + " of " + LENGTH);
          }
        }
        float[] part = new float[LENGTH - 1000];
        array.download(part, 3, 500, LENGTH - 1003);
        assertArrayEquals(
            java.util.Arrays.copyOfRange(floats, 500, LENGTH - 503),
            java.util.Arrays.copyOfRange(part, 3, LENGTH - 1000),
            "a part, at other offsets");
      }
      try (LongArray array = vulkan.upload(longs)) {
        assertArrayEquals(longs, array.toArray());
      }
      try (BooleanArray array = vulkan.upload(booleans)) {
        assertArrayEquals(booleans, array.toArray());
      }
      try (CharArray array = vulkan.upload(chars)) {
        assertArrayEquals(chars, array.toArray());
      }
    }
  }
}
