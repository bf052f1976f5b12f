package dev.kiln.vulkan;

import static org.lwjgl.util.spvc.Spv.SpvCapabilityDenormPreserve;
import static org.lwjgl.util.spvc.Spv.SpvExecutionModeDenormPreserve;
import static org.lwjgl.util.spvc.Spv.SpvOpCapability;
import static org.lwjgl.util.spvc.Spv.SpvOpExecutionMode;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * The one edit the Vulkan backend makes to a module: for a driver that cannot preserve subnormal
 * values of a float width, the module's requests to preserve them go (and the DenormPreserve
 * capability where none is left); the driver may then flush such values to zero, as
 * docs/DRIVER-GAPS.md says. It walks the module's instructions by their word counts and reads
 * nothing else of it: what the runtime knows of a kernel comes from its description.
 */
final class DenormModes {
  private DenormModes() {}

  private static final int HEADER_WORDS = 5;

  /**
   * {@code code} without its DenormPreserve execution modes of the widths not in {@code preserved}.
   *
   * @param code a module
   * @param preserved the float widths (16, 32, 64) the driver preserves subnormals of
   * @return the module, {@code code} itself where nothing goes
   */
  static byte[] preservingOnly(byte[] code, Set<Integer> preserved) {
    ByteBuffer words = ByteBuffer.wrap(code).order(ByteOrder.LITTLE_ENDIAN);
    IntPredicate denormMode =
        at ->
            (words.getInt(at) & 0xffff) == SpvOpExecutionMode
                && words.getInt(at) >>> 16 == 4
                && words.getInt(at + 8) == SpvExecutionModeDenormPreserve;
    boolean anyKept = false;
    for (int at = HEADER_WORDS * 4;
        at + 4 <= code.length;
        at += 4 * Math.max(1, words.getInt(at) >>> 16)) {
      anyKept |= denormMode.test(at) && preserved.contains(words.getInt(at + 12));
    }
    ByteBuffer kept = ByteBuffer.allocate(code.length).put(code, 0, HEADER_WORDS * 4);
    for (int at = HEADER_WORDS * 4;
        at + 4 <= code.length;
        at += 4 * Math.max(1, words.getInt(at) >>> 16)) {
      boolean dropped =
          denormMode.test(at)
              ? !preserved.contains(words.getInt(at + 12))
              : !anyKept
                  && (words.getInt(at) & 0xffff) == SpvOpCapability
                  && words.getInt(at + 4) == SpvCapabilityDenormPreserve;
      if (!dropped) {
        kept.put(code, at, 4 * Math.max(1, words.getInt(at) >>> 16));
      }
    }
    return kept.position() == code.length ? code : Arrays.copyOf(kept.array(), kept.position());
  }
}
