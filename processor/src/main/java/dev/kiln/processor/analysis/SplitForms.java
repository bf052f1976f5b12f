package dev.kiln.processor.analysis;

import dev.kiln.abi.LaunchForm;
import dev.kiln.abi.SplitForm;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Builtin;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which one-dimensional launches of a gated kernel or fused group may run split along x across
 * devices ({@link SplitForm}): a device that runs the workgroups of ids {@code [a, b)} must touch
 * no element of a written buffer outside {@code [a, b)}, so that gathering each device's range
 * gives what one device would have left. A buffer accessed only at {@code s·Gpu.globalId(0) + c},
 * one {@code s ≥ 1} and each {@code c} in {@code [0, s)}, is sliced (each id owns a block of {@code
 * s} elements); a buffer only read, anywhere, goes whole to every device, with the offsets {@code
 * d} of its reads where each is at {@code Gpu.globalId(0) + d} with {@code d} the same for the
 * whole launch (what a sharded array's halo must cover); a buffer written and accessed anywhere
 * else refuses the split, as do matrix tiles, whose elements span many ids.
 */
public final class SplitForms {
  private static final IndexForm.Id GLOBAL_X = new IndexForm.Id(Builtin.GLOBAL_ID, 0);

  private SplitForms() {}

  /**
   * The split form of {@code gated}, a program before vectorization (whose indices are still the
   * kernel's own).
   *
   * @param gated the program, with its analyses
   * @return its form
   */
  public static SplitForm of(Analysis gated) {
    Facts facts = gated.facts();
    if (facts.matrices()) {
      return SplitForm.refused(
          "it loads or stores matrix tiles, each of which spans the elements of many ids");
    }
    if (facts.copies()) {
      return SplitForm.refused(
          "it copies ranges of arrays (System.arraycopy), each of which spans the elements of many ids");
    }
    Map<Integer, SplitForm.Share> buffers = new LinkedHashMap<>();
    for (BufferDecl buffer : gated.program().buffers()) {
      List<Facts.Access> accesses = facts.accessesOf(buffer.name());
      int stride = accesses.isEmpty() ? 1 : stride(gated.forms().form(accesses.getFirst().index()));
      Facts.Access elsewhere =
          accesses.stream()
              .filter(access -> stride == 0 || stride(gated.forms().form(access.index())) != stride)
              .findFirst()
              .orElse(null);
      Facts.Access write =
          accesses.stream().filter(access -> access.kind().writes()).findFirst().orElse(null);
      if (elsewhere == null) {
        buffers.put(buffer.binding(), SplitForm.Share.sliced(stride));
      } else if (write == null) {
        List<LaunchForm> reach = reach(gated, accesses);
        buffers.put(
            buffer.binding(), reach.isEmpty() ? SplitForm.Share.ALL : SplitForm.Share.near(reach));
      } else {
        String what =
            elsewhere.kind().writes()
                ? elsewhere.kind().verb()
                : "writes (line " + write.site().line() + ") and reads";
        return SplitForm.refused(
            "it "
                + what
                + " buffer '"
                + buffer.name()
                + "' at "
                + describe(gated.forms().form(elsewhere.index()))
                + " (line "
                + elsewhere.site().line()
                + "), not in the block of Gpu.globalId(0) (s * Gpu.globalId(0) + c, 0 <= c < s, one s for every access):"
                + " the devices' ranges of ids would meet in its elements");
      }
    }
    return new SplitForm(buffers, null);
  }

  /**
   * The offsets {@code d} of accesses each at {@code Gpu.globalId(0) + d}, {@code d} a form of
   * constants, int scalars and buffer lengths; empty where an access is elsewhere.
   */
  private static List<LaunchForm> reach(Analysis gated, List<Facts.Access> accesses) {
    Set<LaunchForm> offsets = new LinkedHashSet<>();
    for (Facts.Access access : accesses) {
      if (!(gated.forms().form(access.index()) instanceof IndexForm.Affine affine)
          || affine.coefficient(GLOBAL_X) != 1) {
        return List.of();
      }
      Map<String, Long> terms = new TreeMap<>();
      for (Map.Entry<IndexForm.Term, Integer> term : affine.coefficients().entrySet()) {
        switch (term.getKey()) {
          case IndexForm.Id id when id.equals(GLOBAL_X) -> {}
          case IndexForm.Scalar scalar -> terms.put("s:" + scalar.name(), (long) term.getValue());
          case IndexForm.Length length -> terms.put("n:" + length.buffer(), (long) term.getValue());
          default -> {
            return List.of();
          }
        }
      }
      offsets.add(new LaunchForm(affine.constant(), terms));
    }
    return List.copyOf(offsets);
  }

  /**
   * The {@code s} of an index {@code s·Gpu.globalId(0) + c} with {@code 0 ≤ c < s}; 0 for any other
   * index.
   */
  private static int stride(IndexForm form) {
    if (form instanceof IndexForm.Affine affine && affine.coefficients().size() == 1) {
      int s = affine.coefficient(GLOBAL_X);
      return s >= 1 && affine.constant() >= 0 && affine.constant() < s ? s : 0;
    }
    return 0;
  }

  private static String describe(IndexForm form) {
    return form instanceof IndexForm.Affine ? form.toString() : "an index not affine in the ids";
  }
}
