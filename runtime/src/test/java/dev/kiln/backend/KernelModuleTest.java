package dev.kiln.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KernelModuleTest {
  private static final int[] HEADER = {0x07230203, 0x00010300, 0, 100, 0};
  private static final int[] SHADER = {2 << 16 | 17, 1};
  private static final int[] DENORM_CAPABILITY = {2 << 16 | 17, 4464};
  private static final int[] DENORM_32 = {4 << 16 | 16, 7, 4459, 32};
  private static final int[] DENORM_64 = {4 << 16 | 16, 7, 4459, 64};
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
    assertArrayEquals(code, KernelModule.scan(code).preservingDenormsOnly(Set.of(32, 64)).code());
    assertArrayEquals(module(SHADER, DENORM_CAPABILITY, DENORM_32, SIGNED_ZERO_32),
        KernelModule.scan(code).preservingDenormsOnly(Set.of(32)).code());
    assertArrayEquals(module(SHADER, DENORM_CAPABILITY, SIGNED_ZERO_32, DENORM_64),
        KernelModule.scan(code).preservingDenormsOnly(Set.of(64)).code());
  }

  @Test
  void dropsTheCapabilityWithTheLastMode() {
    byte[] code = module(SHADER, DENORM_CAPABILITY, DENORM_32, SIGNED_ZERO_32, DENORM_64);
    KernelModule without = KernelModule.scan(code).preservingDenormsOnly(Set.of());
    assertArrayEquals(module(SHADER, SIGNED_ZERO_32), without.code());
    assertEquals(Set.of(1), without.capabilities());
  }

  /** Float atomic adds are told apart by their scope: workgroup for workgroup arrays, device for buffers. */
  @Test
  void findsWhereFloatsAreAddedAtomically() {
    int[] uint = {4 << 16 | 21, 2, 32, 0};
    int[] deviceScope = {4 << 16 | 43, 2, 3, 1};
    int[] workgroupScope = {4 << 16 | 43, 2, 4, 2};
    int[] addOnBuffer = {7 << 16 | 6035, 5, 10, 9, 3, 6, 8};
    int[] addOnWorkgroup = {7 << 16 | 6035, 5, 11, 9, 4, 6, 8};
    assertEquals(new KernelModule.AtomicPlaces(true, false),
        KernelModule.scan(module(SHADER, uint, deviceScope, workgroupScope, addOnBuffer)).floatAdds());
    assertEquals(new KernelModule.AtomicPlaces(false, true),
        KernelModule.scan(module(SHADER, uint, deviceScope, workgroupScope, addOnWorkgroup)).floatAdds());
    assertEquals(new KernelModule.AtomicPlaces(false, false), KernelModule.scan(module(SHADER)).floatAdds());
  }

  /** Long atomic updates are told apart the same way; an int one is neither. */
  @Test
  void findsWhereLongsAreUpdatedAtomically() {
    int[] uint = {4 << 16 | 21, 2, 32, 0};
    int[] ulong = {4 << 16 | 21, 12, 64, 0};
    int[] deviceScope = {4 << 16 | 43, 2, 3, 1};
    int[] workgroupScope = {4 << 16 | 43, 2, 4, 2};
    int[] addOnBuffer = {7 << 16 | 234, 12, 10, 9, 3, 6, 8};
    int[] maxOnWorkgroup = {7 << 16 | 238, 12, 11, 9, 4, 6, 8};
    int[] intAdd = {7 << 16 | 234, 2, 13, 9, 4, 6, 8};
    assertEquals(new KernelModule.AtomicPlaces(true, false),
        KernelModule.scan(module(SHADER, uint, ulong, deviceScope, workgroupScope, addOnBuffer)).longUpdates());
    assertEquals(new KernelModule.AtomicPlaces(false, true),
        KernelModule.scan(module(SHADER, uint, ulong, deviceScope, workgroupScope, maxOnWorkgroup)).longUpdates());
    assertEquals(new KernelModule.AtomicPlaces(false, false),
        KernelModule.scan(module(SHADER, uint, ulong, deviceScope, workgroupScope, intAdd)).longUpdates());
  }

  /** A subgroup operation that takes longs needs shaderSubgroupExtendedTypes; one on ints does not. */
  @Test
  void findsSubgroupOperationsOnLongs() {
    int[] uint = {4 << 16 | 21, 2, 32, 0};
    int[] ulong = {4 << 16 | 21, 12, 64, 0};
    int[] subgroupScope = {4 << 16 | 43, 2, 4, 3};
    int[] longSum = {6 << 16 | 349, 12, 10, 4, 0, 9};
    int[] intSum = {6 << 16 | 349, 2, 11, 4, 0, 9};
    assertEquals(true, KernelModule.scan(module(SHADER, uint, ulong, subgroupScope, longSum)).subgroupLongs());
    assertEquals(false, KernelModule.scan(module(SHADER, uint, ulong, subgroupScope, intSum)).subgroupLongs());
  }
}
