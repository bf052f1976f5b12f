package dev.kiln.processor.model;

import dev.kiln.processor.ir.Workgroup;
import java.util.List;

/**
 * A fuse group as its kernels' declarations show it: its arms in group order, the union of their
 * parameters (each name once, first-seen order) and, for each arm, where each of its parameters
 * sits in that union. Enough to write the group's launcher.
 *
 * @param consistent whether every shared name has one type in all arms; a group whose arms disagree
 *     gets no launcher (fusion reports the conflict)
 */
public record GroupSignature(
    String name,
    List<KernelSignature> arms,
    List<KernelSignature.Param> params,
    List<int[]> armParams,
    boolean consistent) {

  public GroupSignature {
    arms = List.copyOf(arms);
    params = List.copyOf(params);
    armParams = armParams.stream().map(int[]::clone).toList();
  }

  public KernelSignature first() {
    return arms.getFirst();
  }

  /** The axis-wise largest workgroup of the arms: the fused program's. */
  public Workgroup workgroup() {
    return arms.stream().map(KernelSignature::workgroup).reduce(Workgroup::max).orElseThrow();
  }

  /** Whether some arm's launches take grids ({@link KernelSignature#takesGrids()}). */
  public boolean takesGrids() {
    return arms.stream().anyMatch(KernelSignature::takesGrids);
  }

  /** The SPIR-V resource, relative to the owner's package. */
  public String moduleResource() {
    return first().flatName() + "." + name + ".group.spv";
  }
}
