package dev.kiln.processor.ir;

import java.util.List;

/**
 * The launch ABI ({@link dev.kiln.abi.LaunchAbi}, shared with the runtime) as members of the
 * push-constant block the modules declare: five 32-bit launch values (grid x, first group, grid y,
 * grid z, fault region), a group's arm grids, then the scalars.
 */
public final class PushConstantBlock {
  /** Push-constant bytes every Vulkan device offers. */
  public static final int LIMIT = dev.kiln.abi.LaunchAbi.PUSH_CONSTANT_LIMIT;

  /**
   * Members of the dispatch geometry and fault region: count x, first group, count y, count z,
   * fault region.
   */
  public static final int LAUNCH_MEMBERS = 5;

  public static final int FIRST_GROUP_MEMBER = 1;
  public static final int FAULT_REGION_MEMBER = 4;

  private PushConstantBlock() {}

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
    return dev.kiln.abi.LaunchAbi.scalarOffsets(
        arms, scalars.stream().mapToInt(PrimType::bytes).toArray());
  }

  /** Size of the block for {@code arms} arms and {@code scalars}. */
  public static int size(int arms, List<PrimType> scalars) {
    return dev.kiln.abi.LaunchAbi.blockBytes(
        arms, scalars.stream().mapToInt(PrimType::bytes).toArray());
  }
}
