package dev.kiln.abi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntUnaryOperator;
import java.util.function.ToIntFunction;

/**
 * How a one-dimensional launch of a kernel or group may be split along x across devices, as the
 * processor proved it: each device runs whole workgroups of the launch over its own range of global
 * ids along x, on its own copies of the buffers. A buffer every access of which is at {@code s *
 * Gpu.globalId(0) + c}, for one constant {@code s ≥ 1} and constants {@code 0 ≤ c < s}, is {@link
 * Role#SLICED} with stride {@code s}: a device that runs ids {@code [a, b)} needs, and changes,
 * only its elements {@code [s·a, s·b)}. A buffer only read, anywhere else, is {@link Role#WHOLE}:
 * every device gets all of it; where every read is at {@code Gpu.globalId(0) + d}, {@code d} the
 * same for every invocation of a launch (constants, int scalars, lengths), its share names each
 * {@code d} ({@link Share#reach}), and a device of ids {@code [a, b)} reads only elements {@code [a
 * + min d, b - 1 + max d]}: a sharded array's halo serves them. A buffer written anywhere else
 * leaves the launch unsplittable, and {@code refusal} says which access (null where it splits). A
 * kernel's {@link KernelDescription} carries its form.
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
   * @param reach for a whole buffer every read of which is at {@code Gpu.globalId(0) + d}, each
   *     {@code d} (a {@link LaunchForm} of constants, int scalars {@code s:P} and lengths {@code
   *     n:P}); empty for one read anywhere, and for a sliced buffer
   */
  public record Share(Role role, int stride, List<LaunchForm> reach) {
    /** A buffer every device gets whole. */
    public static final Share ALL = new Share(Role.WHOLE, 1);

    /** Checks the stride and the reach. */
    public Share {
      Objects.requireNonNull(role);
      reach = List.copyOf(reach);
      if (stride < 1 || role == Role.WHOLE && stride != 1) {
        throw new IllegalArgumentException(role + " with stride " + stride);
      }
      if (role == Role.SLICED && !reach.isEmpty()) {
        throw new IllegalArgumentException("a sliced buffer with a reach: " + reach);
      }
    }

    /**
     * A share without a reach.
     *
     * @param role sliced or whole
     * @param stride the elements per id of a sliced buffer; 1 for a whole one
     */
    public Share(Role role, int stride) {
      this(role, stride, List.of());
    }

    /**
     * A buffer only read, every device getting it whole, each read at {@code Gpu.globalId(0) + d}
     * for a {@code d} of {@code reach}.
     *
     * @param reach the offsets from the global id, at least one
     * @return the share
     */
    public static Share near(List<LaunchForm> reach) {
      if (reach.isEmpty()) {
        throw new IllegalArgumentException("a reach names at least one offset");
      }
      return new Share(Role.WHOLE, 1, reach);
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
   * This form with its buffers, and the parameters its reaches name, numbered anew.
   *
   * @param renumber a buffer's new number by its old one (the processor's binding to the
   *     parameter's index)
   * @param index a parameter's index by its name, for the reaches ({@link LaunchForm#numbered})
   * @return the form
   */
  public SplitForm numbered(IntUnaryOperator renumber, ToIntFunction<String> index) {
    Map<Integer, Share> numbered = new LinkedHashMap<>();
    buffers.forEach(
        (buffer, share) ->
            numbered.put(
                renumber.applyAsInt(buffer),
                new Share(
                    share.role(),
                    share.stride(),
                    share.reach().stream().map(form -> form.numbered(index)).toList())));
    return new SplitForm(numbered, refusal);
  }
}
