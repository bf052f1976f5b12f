package dev.kiln.vulkan;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.Set;

/** The capabilities a SPIR-V module declares, read from its OpCapability instructions. */
final class SpirvCapabilities {
  static final int FLOAT64 = 10;
  private static final int OP_CAPABILITY = 17;
  private static final int HEADER_WORDS = 5;

  private SpirvCapabilities() {}

  static Set<Integer> of(byte[] module) {
    ByteBuffer words = ByteBuffer.wrap(module).order(ByteOrder.LITTLE_ENDIAN);
    Set<Integer> capabilities = new HashSet<>();
    int at = HEADER_WORDS * 4;
    while (at + 4 <= module.length) {
      int first = words.getInt(at);
      int count = first >>> 16;
      if ((first & 0xffff) != OP_CAPABILITY || count < 2) {
        break; // capabilities open the module
      }
      capabilities.add(words.getInt(at + 4));
      at += 4 * count;
    }
    return capabilities;
  }
}
