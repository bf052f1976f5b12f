package dev.kiln.processor.ir;

import java.util.List;

/**
 * The push-constant layout of the launch ABI (see the runtime's {@code KernelSpec}): 16 bytes of
 * launch geometry, then the scalars in parameter order, each at its natural alignment.
 */
public final class PushConstants {
  /** Bytes of launch geometry before the first scalar. */
  public static final int LAUNCH_BYTES = 16;
  /** What Vulkan guarantees. */
  public static final int LIMIT = 128;

  private PushConstants() {}

  /** The offset of each scalar of the given types, in order. */
  public static int[] offsets(List<PrimType> scalars) {
    int[] offsets = new int[scalars.size()];
    int end = LAUNCH_BYTES;
    for (int i = 0; i < offsets.length; i++) {
      int size = scalars.get(i).bytes();
      offsets[i] = Math.ceilDiv(end, size) * size;
      end = offsets[i] + size;
    }
    return offsets;
  }

  /** Size of the block holding {@code scalars}. */
  public static int size(List<PrimType> scalars) {
    int[] offsets = offsets(scalars);
    return offsets.length == 0 ? LAUNCH_BYTES : offsets[offsets.length - 1] + scalars.getLast().bytes();
  }
}
