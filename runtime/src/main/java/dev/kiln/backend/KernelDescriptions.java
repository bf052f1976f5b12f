package dev.kiln.backend;

import dev.kiln.abi.AliasConflict;
import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.SplitForm;
import dev.kiln.annotations.Access;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link KernelDescription} of each kernel and group, read once from beside its module, and
 * what launches read of it in the form they read it. A kernel the processor did not compile (no
 * description) has the one its declarations give ({@link #declared}), which the CPU backend runs as
 * its Java method.
 */
public final class KernelDescriptions {
  private KernelDescriptions() {}

  /**
   * A description, and its alias conflicts as pairs of parameter indices {@code {a0, b0, a1, b1,
   * ...}}.
   */
  private record Read(KernelDescription description, int[] conflicts) {}

  private static final Map<KernelSpec, Read> READ = new ConcurrentHashMap<>();

  /**
   * {@code spec}'s description, read on first use.
   *
   * @param spec the kernel or group
   * @return its description
   * @throws IllegalStateException where the description beside the module cannot be read
   */
  public static KernelDescription of(KernelSpec spec) {
    return read(spec).description();
  }

  /**
   * The pairs of {@code spec}'s buffer parameters that may not be given one array, as parameter
   * indices {@code {a0, b0, a1, b1, ...}}: its description's {@link AliasConflict}s.
   *
   * @param spec the kernel or group
   * @return the pairs, flattened
   */
  public static int[] aliasConflictsOf(KernelSpec spec) {
    return read(spec).conflicts();
  }

  /**
   * What a kernel without a description has (one the processor did not compile, which the CPU
   * backend runs as its Java method): its parameters' declared accesses, as conflicts every pair of
   * buffers of one element type of which one is not declared read-only, and nothing else.
   *
   * @param spec the kernel
   * @return its description from its declarations
   */
  public static KernelDescription declared(KernelSpec spec) {
    List<KernelSpec.Param> params = spec.params();
    List<AliasConflict> conflicts = new ArrayList<>();
    for (int a = 0; a < params.size(); a++) {
      for (int b = a + 1; b < params.size(); b++) {
        KernelSpec.Param first = params.get(a);
        KernelSpec.Param second = params.get(b);
        if (first.isBuffer()
            && second.isBuffer()
            && first.type() == second.type()
            && (first.access() != Access.READ || second.access() != Access.READ)) {
          conflicts.add(new AliasConflict(a, b));
        }
      }
    }
    return new KernelDescription(
        Set.of(),
        1,
        false,
        0,
        List.of(),
        params.stream().map(KernelSpec.Param::access).toList(),
        List.of(),
        List.of(),
        conflicts,
        SplitForm.refused("it has no module (the Kiln processor did not compile it)"));
  }

  private static Read read(KernelSpec spec) {
    return READ.computeIfAbsent(
        spec,
        kernel -> {
          KernelDescription description = kernel.description().orElseGet(() -> declared(kernel));
          int[] pairs = new int[2 * description.aliasConflicts().size()];
          for (int k = 0; k < description.aliasConflicts().size(); k++) {
            pairs[2 * k] = description.aliasConflicts().get(k).first();
            pairs[2 * k + 1] = description.aliasConflicts().get(k).second();
          }
          return new Read(description, pairs);
        });
  }
}
