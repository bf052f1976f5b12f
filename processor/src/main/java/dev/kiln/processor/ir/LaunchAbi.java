package dev.kiln.processor.ir;

import java.util.List;

/**
 * The launch ABI shared with the runtime's {@code KernelSpec}: storage buffers at bindings 0, 1, …
 * of set 0 in program order (the fault buffer after them), each bound with one element more than
 * the array it holds (so that an empty array has a binding and a length: the runtime array's length
 * minus one), and one push-constant block of 32-bit launch values followed by the scalars.
 *
 * <p>The block opens with the dispatch's grid x size, its first workgroup along x (a launch larger
 * than the device's workgroup-count limit is split), and its grid y and z sizes: 16 bytes. A fused
 * group of two or more arms then holds each arm's own grid (x, y, z) in arm order, 12 bytes per arm.
 * The scalars follow in program order, each at its natural alignment.
 */
public final class LaunchAbi {
  /** Bytes of dispatch geometry at the start of the block. */
  public static final int LAUNCH_BYTES = 16;
  /** Push-constant bytes every Vulkan device offers. */
  public static final int LIMIT = 128;
  /** Members of the dispatch geometry: count x, first group, count y, count z. */
  public static final int LAUNCH_MEMBERS = 4;
  public static final int FIRST_GROUP_MEMBER = 1;

  private LaunchAbi() {}

  /** Members holding per-arm grids: none for a single kernel, three per arm for a group. */
  public static int armMembers(int arms) {
    return arms > 1 ? 3 * arms : 0;
  }

  /** The member holding arm {@code arm}'s grid size along {@code axis}. */
  public static int countMember(int arms, int arm, int axis) {
    if (arms > 1) {
      return LAUNCH_MEMBERS + 3 * arm + axis;
    }
    return switch (axis) {
      case 0 -> 0;
      case 1 -> 2;
      case 2 -> 3;
      default -> throw new IllegalArgumentException("axis " + axis);
    };
  }

  /** The member of the first scalar. */
  public static int firstScalarMember(int arms) {
    return LAUNCH_MEMBERS + armMembers(arms);
  }

  /** The offset of each scalar of the given types, in order. */
  public static int[] scalarOffsets(int arms, List<PrimType> scalars) {
    int[] offsets = new int[scalars.size()];
    int end = LAUNCH_BYTES + 4 * armMembers(arms);
    for (int i = 0; i < offsets.length; i++) {
      int size = scalars.get(i).bytes();
      offsets[i] = Math.ceilDiv(end, size) * size;
      end = offsets[i] + size;
    }
    return offsets;
  }

  /** Size of the block for {@code arms} arms and {@code scalars}. */
  public static int size(int arms, List<PrimType> scalars) {
    int[] offsets = scalarOffsets(arms, scalars);
    return offsets.length == 0
        ? LAUNCH_BYTES + 4 * armMembers(arms)
        : offsets[offsets.length - 1] + scalars.getLast().bytes();
  }
}
