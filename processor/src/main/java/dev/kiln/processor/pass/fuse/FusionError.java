package dev.kiln.processor.pass.fuse;

import dev.kiln.processor.analysis.Facts;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Workgroup;
import java.util.Optional;

/**
 * Why a fuse group cannot become one program. Each error names the arm it is reported on (its
 * {@code @FuseGroup}), or the access it is reported at.
 */
public sealed interface FusionError {
  /** The group. */
  String group();

  /** The arm whose {@code @FuseGroup} the error belongs on. */
  int arm();

  /** The exact access to report at, where there is one. */
  default Optional<Site> site() {
    return Optional.empty();
  }

  /**
   * A kernel marked {@code selfComposable = false} is arm {@code first} and again arm {@code arm}.
   */
  record SelfAliasing(String group, String kernel, int first, int arm) implements FusionError {}

  /**
   * Arms {@code earlier} and {@code later} access buffer {@code buffer} in a way no barrier inside
   * one dispatch can order: {@code earlierAccess} and {@code laterAccess} are the two accesses;
   * {@code analyzable} is false where an index was beyond the index analysis.
   */
  record Aliasing(
      String group,
      String buffer,
      ArmAccess earlierAccess,
      ArmAccess laterAccess,
      boolean analyzable)
      implements FusionError {
    @Override
    public int arm() {
      return laterAccess.arm();
    }

    @Override
    public Optional<Site> site() {
      return Optional.of(laterAccess.site());
    }
  }

  /**
   * An access of arm {@code arm}, kernel {@code kernel}, at {@code site}; {@code range} where it is
   * a side of {@code System.arraycopy}.
   */
  record ArmAccess(int arm, String kernel, Facts.Kind kind, Site site, boolean range) {}

  /**
   * The fused workgroup has {@code fusedInvocations}, more than {@link Fusion#OVER_DISPATCH_LIMIT}
   * times the {@code largestInvocations} of the largest arm, {@code largestArm}; reported on {@code
   * arm}, the arm that widened it most.
   */
  record OverDispatch(
      String group,
      int arm,
      String kernel,
      Workgroup fused,
      long fusedInvocations,
      int largestArm,
      String largestKernel,
      long largestInvocations)
      implements FusionError {}

  /**
   * Arm {@code arm} would run under workgroup {@code fused} instead of its own, and {@code reason}
   * (it waits at barriers, …) makes its results depend on its workgroup.
   */
  record WorkgroupGeometry(
      String group, int arm, String kernel, Workgroup own, Workgroup fused, String reason)
      implements FusionError {}

  /**
   * The name {@code name} means {@code otherType} in arm {@code other} and {@code type} in arm
   * {@code arm}; arms share buffers and scalars by name, so they must agree.
   */
  record TypeConflict(
      String group,
      String name,
      int other,
      String otherKernel,
      String otherType,
      int arm,
      String kernel,
      String type)
      implements FusionError {}

  /**
   * Arm {@code arm} ({@code kernel}) uses cooperative matrices, whose tiles the fusion analysis
   * does not follow across arms yet.
   */
  record Matrices(String group, int arm, String kernel) implements FusionError {}
}
