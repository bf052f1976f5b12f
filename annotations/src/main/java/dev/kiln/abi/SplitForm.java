package dev.kiln.abi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a one-dimensional launch of a kernel or group may be split along x across devices, as the
 * processor proved it: each device runs whole workgroups of the launch over its own range of global
 * ids along x, on its own copies of the buffers. A buffer every access of which is at
 * {@code s * Gpu.globalId(0) + c}, for one constant {@code s ≥ 1} and constants {@code 0 ≤ c < s},
 * is {@link Role#SLICED} with stride {@code s}: a device that runs ids {@code [a, b)} needs, and
 * changes, only its elements {@code [s·a, s·b)}. A buffer only read, anywhere else, is
 * {@link Role#WHOLE}: every device gets all of it. A buffer written anywhere else leaves the launch
 * unsplittable, and {@code refusal} says which access (null where it splits). A module carries its
 * form as {@code OpModuleProcessed} lines ({@link #lines()}).
 *
 * @param buffers each buffer parameter's share, by name, in binding order; empty where refused
 * @param refusal why the launch cannot be split, or null
 */
public record SplitForm(Map<String, Share> buffers, String refusal) {
  /** The text that opens each of a module's split lines. */
  public static final String PROCESSED = "kiln.split ";
  private static final String REFUSED = "refused ";
  private static final String WHOLE = "whole ";
  private static final String SLICED = "sliced ";

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

  /** What a module without split lines has: the processor that wrote it said nothing. */
  public static final SplitForm UNKNOWN = refused("its module says nothing about splitting (compiled by an older Kiln)");

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
   * The module's lines, each to follow {@link #PROCESSED}: {@code sliced <s> <name>},
   * {@code whole <name>}, or {@code refused <why>}.
   *
   * @return the lines
   */
  public List<String> lines() {
    if (refusal != null) {
      return List.of(REFUSED + refusal);
    }
    return buffers.entrySet().stream().map(buffer -> buffer.getValue().role() == Role.WHOLE ? WHOLE + buffer.getKey()
        : SLICED + buffer.getValue().stride() + " " + buffer.getKey()).toList();
  }

  /**
   * The form that {@link #lines()} wrote.
   *
   * @param lines the lines, each without {@link #PROCESSED}
   * @return the form; {@link #UNKNOWN} for none
   */
  public static SplitForm decode(List<String> lines) {
    if (lines.isEmpty()) {
      return UNKNOWN;
    }
    Map<String, Share> buffers = new LinkedHashMap<>();
    for (String line : lines) {
      if (line.startsWith(REFUSED)) {
        return refused(line.substring(REFUSED.length()));
      }
      if (line.startsWith(WHOLE)) {
        buffers.put(line.substring(WHOLE.length()), Share.ALL);
      } else {
        String[] words = line.substring(SLICED.length()).split(" ", 2);
        buffers.put(words[1], Share.sliced(Integer.parseInt(words[0])));
      }
    }
    return new SplitForm(buffers, null);
  }
}
