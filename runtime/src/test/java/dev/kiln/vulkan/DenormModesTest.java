package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A module loses only the requests to preserve subnormals that its device's driver cannot honour.
 */
class DenormModesTest {
  private static final int[] HEADER = {0x07230203, 0x00010300, 0, 100, 0};
  private static final int[] SHADER = {2 << 16 | 17, 1};
  private static final int[] DENORM_CAPABILITY = {2 << 16 | 17, 4464};
  private static final int[] DENORM_32 = {4 << 16 | 16, 7, 4459, 32};
  private static final int[] DENORM_64 = {4 << 16 | 16, 7, 4459, 64};
  private static final int[] DENORM_16 = {4 << 16 | 16, 7, 4459, 16};
  private static final int[] SIGNED_ZERO_32 = {4 << 16 | 16, 7, 4461, 32};

  private static byte[] module(int[]... instructions) {
    ByteBuffer bytes = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
    for (int word : HEADER) {
      bytes.putInt(word);
    }
    for (int[] instruction : instructions) {
      for (int word : instruction) {
        bytes.putInt(word);
      }
    }
    return java.util.Arrays.copyOf(bytes.array(), bytes.position());
  }

  @Test
  void keepsWhatTheDevicePreserves() {
    byte[] code = module(SHADER, DENORM_CAPABILITY, DENORM_32, SIGNED_ZERO_32, DENORM_64);
    assertSame(code, DenormModes.preservingOnly(code, Set.of(32, 64)));
    assertArrayEquals(
        module(SHADER, DENORM_CAPABILITY, DENORM_32, SIGNED_ZERO_32),
        DenormModes.preservingOnly(code, Set.of(32)));
    assertArrayEquals(
        module(SHADER, DENORM_CAPABILITY, SIGNED_ZERO_32, DENORM_64),
        DenormModes.preservingOnly(code, Set.of(64)));
  }

  /**
   * A module that converts float16 with the device's instruction asks for 16-bit subnormals; a
   * driver without them loses the request (and its pipelines keep the integer form).
   */
  @Test
  void keepsHalfSubnormalsOnlyWhereTheDriverDoes() {
    byte[] code = module(SHADER, DENORM_CAPABILITY, DENORM_32, DENORM_16);
    assertSame(code, DenormModes.preservingOnly(code, Set.of(16, 32)));
    assertArrayEquals(
        module(SHADER, DENORM_CAPABILITY, DENORM_32), DenormModes.preservingOnly(code, Set.of(32)));
    assertArrayEquals(
        module(SHADER, DENORM_CAPABILITY, DENORM_16), DenormModes.preservingOnly(code, Set.of(16)));
  }

  @Test
  void dropsTheCapabilityWithTheLastMode() {
    byte[] code = module(SHADER, DENORM_CAPABILITY, DENORM_32, SIGNED_ZERO_32, DENORM_64);
    assertArrayEquals(module(SHADER, SIGNED_ZERO_32), DenormModes.preservingOnly(code, Set.of()));
  }
}
