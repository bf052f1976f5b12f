package dev.kiln.abi;

import dev.kiln.annotations.Access;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What the processor tells the runtime about one compiled kernel or group, beside its SPIR-V module
 * ({@link DescriptionCodec}): the runtime reads this, never the module's code. Parameters are named
 * by their index in the kernel's {@link KernelSpec}.
 *
 * @param features what the kernel needs of a device beyond Vulkan 1.1's core compute
 * @param elementsPerInvocation consecutive elements along x each invocation handles (4 for a
 *     vectorized kernel), which sizes the dispatch
 * @param usesBarriers whether the kernel waits at workgroup barriers: the CPU backend then runs a
 *     workgroup's invocations side by side
 * @param sharedBytes the workgroup memory the kernel declares, in bytes, but for its arrays sized
 *     by a parameter
 * @param sharedLengths the workgroup arrays sized by a parameter, whose memory a launch adds
 * @param accesses each parameter's access, as the kernel's body uses it (declared or inferred);
 *     {@code READ} for a scalar
 * @param bounds the conditions a launch must keep for the processor's proofs to hold
 * @param proofs what would prove bounds checks unnecessary, given a launch's values
 * @param aliasConflicts the pairs of buffer parameters a launch may not give one array
 * @param split how a launch may split across devices
 */
public record KernelDescription(
    Set<DeviceFeature> features,
    int elementsPerInvocation,
    boolean usesBarriers,
    long sharedBytes,
    List<SharedLength> sharedLengths,
    List<Access> accesses,
    List<LaunchBound> bounds,
    List<LaunchProof> proofs,
    List<AliasConflict> aliasConflicts,
    SplitForm split) {
  /** Copies the collections; checks the counts. */
  public KernelDescription {
    features =
        features.isEmpty()
            ? Set.of()
            : java.util.Collections.unmodifiableSet(EnumSet.copyOf(features));
    sharedLengths = List.copyOf(sharedLengths);
    accesses = List.copyOf(accesses);
    bounds = List.copyOf(bounds);
    proofs = List.copyOf(proofs);
    aliasConflicts = List.copyOf(aliasConflicts);
    Objects.requireNonNull(split);
    if (elementsPerInvocation < 1 || sharedBytes < 0) {
      throw new IllegalArgumentException(
          elementsPerInvocation
              + " elements per invocation, "
              + sharedBytes
              + " bytes of workgroup memory");
    }
  }

  /**
   * Whether the kernel uses subgroups: on the CPU backend its invocations then run side by side.
   *
   * @return whether it does
   */
  public boolean usesSubgroups() {
    return features.contains(DeviceFeature.SUBGROUPS);
  }

  /**
   * Whether the kernel uses cooperative matrices, which a subgroup's lanes compute together.
   *
   * @return whether it does
   */
  public boolean usesMatrices() {
    return features.contains(DeviceFeature.COOPERATIVE_MATRICES);
  }

  /**
   * Parameter {@code param}'s access.
   *
   * @param param the parameter's index
   * @return its access
   */
  public Access access(int param) {
    return accesses.get(param);
  }
}
