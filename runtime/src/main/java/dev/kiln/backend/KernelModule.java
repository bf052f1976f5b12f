package dev.kiln.backend;

import dev.kiln.KernelSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.Set;

/**
 * A kernel's SPIR-V module, loaded from beside its class, with the facts backends read off it: the
 * capabilities it declares (64-bit floats need a device feature) and whether it waits at barriers
 * (the CPU backend then runs a workgroup's invocations side by side).
 */
public record KernelModule(byte[] code, Set<Integer> capabilities, boolean usesBarriers) {
  public static final int CAPABILITY_FLOAT64 = 10;
  public static final int CAPABILITY_INT64 = 11;
  public static final int CAPABILITY_SIGNED_ZERO_INF_NAN_PRESERVE = 4466;
  private static final int OP_CAPABILITY = 17;
  private static final int OP_CONTROL_BARRIER = 224;
  private static final int HEADER_WORDS = 5;

  /** Loads and scans the module of {@code spec}. */
  public static KernelModule of(KernelSpec spec) {
    try (InputStream in = spec.owner().getResourceAsStream(spec.module())) {
      if (in == null) {
        throw new IllegalStateException("SPIR-V module '" + spec.module() + "' of kernel " + spec
            + " is not on the class path beside " + spec.owner().getName()
            + "; was the class compiled with the Kiln processor on the processor path?");
      }
      return scan(in.readAllBytes());
    } catch (IOException e) {
      throw new IllegalStateException("cannot read SPIR-V module of kernel " + spec, e);
    }
  }

  static KernelModule scan(byte[] code) {
    ByteBuffer words = ByteBuffer.wrap(code).order(ByteOrder.LITTLE_ENDIAN);
    Set<Integer> capabilities = new HashSet<>();
    boolean barriers = false;
    for (int at = HEADER_WORDS * 4; at + 4 <= code.length; ) {
      int first = words.getInt(at);
      int count = Math.max(1, first >>> 16);
      switch (first & 0xffff) {
        case OP_CAPABILITY -> capabilities.add(words.getInt(at + 4));
        case OP_CONTROL_BARRIER -> barriers = true;
        default -> {}
      }
      at += 4 * count;
    }
    return new KernelModule(code, Set.copyOf(capabilities), barriers);
  }
}
