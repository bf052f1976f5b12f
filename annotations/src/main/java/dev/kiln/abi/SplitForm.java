package dev.kiln.abi;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How a one-dimensional launch of a kernel or group may be split along x across devices, as the
 * processor proved it: each device runs whole workgroups of the launch over its own range of global
 * ids along x, on its own copies of the buffers. A buffer every access of which is at {@code s *
 * Gpu.globalId(0) + c}, for one constant {@code s ≥ 1} and constants {@code 0 ≤ c < s}, is {@link
 * Role#SLICED} with stride {@code s}: a device that runs ids {@code [a, b)} needs, and changes,
 * only its elements {@code [s·a, s·b)}. A buffer only read, anywhere else, is {@link Role#WHOLE}:
 * every device gets all of it. A buffer written anywhere else leaves the launch unsplittable, and
 * {@code refusal} says which access (null where it splits). A kernel's {@link KernelDescription}
 * carries its form.
 *
 * @param buffers each buffer's share: by parameter index in a description, by binding while the
 *     processor works; in binding order; empty where refused
 * @param refusal why the launch cannot be split, or null
 */
public record SplitForm(Map<Integer, Share> buffers, String refusal) {
  /** What a device of a split launch gets of a buffer. */
  public enum Role {
    /** The elements of its range of ids, in; and back, where the kernel may write the buffer. */
    SLICED,
    /** Every element, in; nothing back: the kernel only reads it. */
    WHOLE
  }

  /**
   * What a device of a split launch gets of one buffer.
   *
   * @param role sliced or whole
   * @param stride for a sliced buffer, the elements per id ({@code s}); 1 for a whole one
   */
  public record Share(Role role, int stride) {
    /** A buffer every device gets whole. */
    public static final Share ALL = new Share(Role.WHOLE, 1);

    /** Checks the stride. */
    public Share {
      Objects.requireNonNull(role);
      if (stride < 1 || role == Role.WHOLE && stride != 1) {
        throw new IllegalArgumentException(role + " with stride " + stride);
      }
    }

    /**
     * A buffer sliced with {@code stride} elements per id.
     *
     * @param stride the elements per id
     * @return the share
     */
    public static Share sliced(int stride) {
      return new Share(Role.SLICED, stride);
    }
  }

  /** What a kernel has before the processor decides its form, and where nothing describes it. */
  public static final SplitForm UNKNOWN =
      refused("nothing describes how it splits (the Kiln processor did not compile it)");

  /** Copies the shares, keeping their order. */
  public SplitForm {
    buffers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(buffers));
    if (refusal == null && buffers.values().stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException("a share per buffer: " + buffers);
    }
  }

  /**
   * A form that cannot be split.
   *
   * @param why the access or fact that prevents it, for the launch's exception
   * @return the form
   */
  public static SplitForm refused(String why) {
    return new SplitForm(Map.of(), Objects.requireNonNull(why));
  }

  /**
   * This form with its buffers numbered anew.
   *
   * @param renumber a buffer's new number by its old one (the processor's binding to the
   *     parameter's index)
   * @return the form
   */
  public SplitForm numbered(java.util.function.IntUnaryOperator renumber) {
    Map<Integer, Share> numbered = new LinkedHashMap<>();
    buffers.forEach((buffer, share) -> numbered.put(renumber.applyAsInt(buffer), share));
    return new SplitForm(numbered, refusal);
  }
}
