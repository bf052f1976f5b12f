package dev.kiln.cpu;

import dev.kiln.abi.ArmFault;
import dev.kiln.abi.KernelSpec;
import dev.kiln.backend.Launch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A fuse group run as its arms' own twins, one arm after the other over each tile of workgroups
 * small enough to stay in the core's cache, instead of the fused twin's one loop. The fused loop is
 * as slow as its slowest arm: one arm that C2 cannot vectorize ({@code Gpu.pow}, a call) keeps the
 * whole loop scalar, which made a fused 4-arm image chain slower than its arms launched one by one.
 * Tiled, each arm's loop is vectorized or not on its own, and the data an arm writes is still in
 * the cache when the next arm reads it.
 *
 * <p>Fusion has proven that no arm reads or writes what another invocation's arm touches, so
 * running the arms of a tile one after the other gives the fused group's results. An arm that
 * faults in a tile ends the faulting invocation's part of that arm, as a kernel's twin does; the
 * group's earlier arms run on over the later tiles (Java runs the arms one after the other, so a
 * fault of theirs comes first), and the fault of the lowest arm that faulted, in its lowest tile,
 * is thrown at the end, as a launch's is ({@link ArmFault} for an arm after the first).
 *
 * <p>Used where every arm has a twin and the arms number their workgroups as the group does: each
 * arm's workgroup the group's size, and all arms 1-D (x only) or over the same grid.
 */
final class TiledArms {
  /** Invocations per tile: a few of a kernel's arrays of it fit a core's L2 cache. */
  static final int TILE = 1 << 15;

  /** One arm: its twin, arguments, grid and count of workgroups. */
  private record ArmRun(CpuTwin twin, Object[] args, int[] grid, int groups) {}

  private final List<ArmRun> arms;
  private final int tileGroups;
  private final int subgroupSize;

  private TiledArms(List<ArmRun> arms, int workgroupSize, int subgroupSize) {
    this.arms = arms;
    this.tileGroups = Math.max(1, TILE / workgroupSize);
    this.subgroupSize = subgroupSize;
  }

  /** The tiled form of a fuse group's launch, where it applies. */
  static Optional<TiledArms> of(Launch launch, Object[] args, int subgroupSize) {
    KernelSpec spec = launch.spec();
    boolean oneDimensional = true;
    boolean sameGrids = true;
    for (int arm = 0; arm < spec.arms().size(); arm++) {
      for (int axis = 0; axis < 3; axis++) {
        if (spec.arms().get(arm).kernel().workgroup(axis) != spec.workgroup(axis)) {
          return Optional.empty(); // its workgroups would number other invocations than the group's
        }
      }
      oneDimensional &= launch.gridSize(arm, 1) <= 1 && launch.gridSize(arm, 2) <= 1;
      for (int axis = 0; axis < 3; axis++) {
        sameGrids &= launch.gridSize(arm, axis) == launch.gridSize(0, axis);
      }
    }
    if (!oneDimensional && !sameGrids) {
      return Optional.empty();
    }
    List<ArmRun> runs = new ArrayList<>();
    for (int arm = 0; arm < spec.arms().size(); arm++) {
      KernelSpec.Arm each = spec.arms().get(arm);
      Optional<CpuTwin> twin = CpuTwin.of(each.kernel());
      if (twin.isEmpty()) {
        return Optional.empty();
      }
      int[] grid = {launch.gridSize(arm, 0), launch.gridSize(arm, 1), launch.gridSize(arm, 2)};
      long groups = 1;
      for (int axis = 0; axis < 3; axis++) {
        groups *= Math.ceilDiv(grid[axis], each.kernel().workgroup(axis));
      }
      runs.add(new ArmRun(twin.get(), each.arguments(args), grid, Math.toIntExact(groups)));
    }
    return Optional.of(
        new TiledArms(
            runs, spec.workgroup(0) * spec.workgroup(1) * spec.workgroup(2), subgroupSize));
  }

  /**
   * Runs workgroups {@code first .. end-1} of the group's dispatch, tile by tile, each arm in turn.
   */
  void run(int first, int end) {
    RuntimeException fault = null;
    int faultArm =
        arms.size(); // the arms from here on matter no more: Java stops at the earlier fault
    for (int tile = first; tile < end; tile += tileGroups) {
      int tileEnd = Math.min(end, tile + tileGroups);
      for (int index = 0; index < faultArm; index++) {
        ArmRun arm = arms.get(index);
        int armEnd = Math.min(tileEnd, arm.groups());
        if (tile < armEnd) {
          try {
            arm.twin().run(arm.args(), arm.grid(), arm.grid(), tile, armEnd, subgroupSize);
          } catch (RuntimeException e) {
            fault = e;
            faultArm = index;
          }
        }
      }
    }
    if (fault != null) {
      throw faultArm == 0 ? fault : new ArmFault(faultArm, fault);
    }
  }
}
