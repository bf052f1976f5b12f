package dev.kiln.abi;

/**
 * The subgroup operations of the CPU backend, which emulates subgroups of {@link #size()} lanes:
 * the invocations of a workgroup numbered {@code s * size .. s * size + size - 1} (x fastest) form
 * subgroup {@code s}, as on GPUs with one-dimensional workgroups. Both CPU paths call {@link
 * #apply}: the CPU twins on their per-invocation locals, the kernel methods on the values their
 * lanes hand over where they meet.
 *
 * <p>Semantics, where Vulkan leaves a choice: sums add the active lanes' values in lane order,
 * starting from the lowest one's and rounding each step for floats; a shuffle from a lane that is
 * not active or not in the subgroup reads the invocation's own value; an exclusive sum is 0 (+0.0)
 * in the lowest active lane; the elected lane is the lowest active one.
 */
public final class SubgroupLanes {
  /**
   * The system property that sets the CPU backend's subgroup size: a power of two from 1 to 128.
   */
  public static final String SIZE_PROPERTY = "kiln.cpu.subgroupSize";

  /** The size without the property: NVIDIA's, and most discrete GPUs'. */
  public static final int DEFAULT_SIZE = 32;

  /** The sum of the active lanes' values. */
  public static final int ADD = 0;

  /** Their minimum. */
  public static final int MIN = 1;

  /** Their maximum. */
  public static final int MAX = 2;

  /** The sum of the active lanes' values up to this lane's, included. */
  public static final int INCLUSIVE_ADD = 3;

  /** The sum below this lane. */
  public static final int EXCLUSIVE_ADD = 4;

  /** The sum over this lane's cluster. */
  public static final int CLUSTERED_ADD = 5;

  /** The minimum over this lane's cluster. */
  public static final int CLUSTERED_MIN = 6;

  /** The maximum over this lane's cluster. */
  public static final int CLUSTERED_MAX = 7;

  /** The value of a constant lane. */
  public static final int BROADCAST = 8;

  /** The value of each lane's chosen lane. */
  public static final int SHUFFLE = 9;

  /** The value of the lane whose index is this one's xor a mask. */
  public static final int SHUFFLE_XOR = 10;

  /** The value of the lane a delta below. */
  public static final int SHUFFLE_UP = 11;

  /** The value of the lane a delta above. */
  public static final int SHUFFLE_DOWN = 12;

  /** The bits of the lanes whose predicate holds. */
  public static final int BALLOT = 13;

  /** Whether some active lane's predicate holds. */
  public static final int ANY = 14;

  /** Whether every active lane's predicate holds. */
  public static final int ALL = 15;

  /** True in the lowest active lane. */
  public static final int ELECT = 16;

  /** The bits of the active lanes (below 32) whose value equals this lane's. */
  public static final int PARTITION = 17;

  /** The sum over the active lanes of a partition, each lane's given as its second operand. */
  public static final int PARTITIONED_ADD = 18;

  /** The minimum over a partition. */
  public static final int PARTITIONED_MIN = 19;

  /** The maximum over a partition. */
  public static final int PARTITIONED_MAX = 20;

  /** The descriptor of {@link #apply}, which the CPU twins call. */
  public static final String APPLY_DESCRIPTOR = "(ILjava/lang/Object;[IILjava/lang/Object;[ZII)V";

  private SubgroupLanes() {}

  /**
   * The configured size, {@link #SIZE_PROPERTY} or {@link #DEFAULT_SIZE}.
   *
   * @return the size
   * @throws IllegalArgumentException if the property is not a power of two from 1 to 128
   */
  public static int size() {
    String value = System.getProperty(SIZE_PROPERTY);
    int size;
    try {
      size = value == null ? DEFAULT_SIZE : Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      size = -1;
    }
    if (size < 1 || size > 128 || Integer.bitCount(size) != 1) {
      throw new IllegalArgumentException(
          "-D"
              + SIZE_PROPERTY
              + "="
              + value
              + ": the CPU backend's subgroup size must"
              + " be a power of two from 1 to 128");
    }
    return size;
  }

  /**
   * Applies operation {@code op} to lanes {@code first .. end-1} of one subgroup: {@code in} holds
   * their values ({@code int[]}, {@code long[]}, {@code float[]}, {@code double[]} or {@code
   * boolean[]}, null for elect), {@code second} their lanes, masks or deltas for the shuffles (null
   * where one constant serves all), {@code constant} that constant, the broadcast lane or the
   * cluster size; the results go to {@code out} (an array of the result's type, not {@code in}) for
   * every active lane, those not marked in {@code inactive}. Every array is indexed from {@code
   * first} on.
   *
   * @param op the operation, one of this class's codes
   * @param in the lanes' values
   * @param second the lanes' shuffle operands, or null
   * @param constant the constant operand
   * @param out where the results go
   * @param inactive the lanes that take no part
   * @param first the subgroup's first lane
   * @param end the end of its lanes
   */
  public static void apply(
      int op,
      Object in,
      int[] second,
      int constant,
      Object out,
      boolean[] inactive,
      int first,
      int end) {
    if (op >= PARTITION && end - first > 32) {
      throw new IllegalArgumentException(
          "partitioned subgroup operations name lanes by the bits of an int: the CPU"
              + " backend runs them in subgroups of up to 32 lanes, not "
              + (end - first));
    }
    for (int lane = first; lane < end; lane++) {
      if (inactive[lane]) {
        continue;
      }
      int self = lane - first;
      switch (op) {
        case ADD, MIN, MAX -> combine(op, in, out, inactive, lane, first, end, -1, first);
        case INCLUSIVE_ADD -> combine(ADD, in, out, inactive, lane, first, lane + 1, -1, first);
        case EXCLUSIVE_ADD -> combine(ADD, in, out, inactive, lane, first, lane, -1, first);
        case CLUSTERED_ADD, CLUSTERED_MIN, CLUSTERED_MAX -> {
          int from = first + self / constant * constant;
          combine(
              op - CLUSTERED_ADD,
              in,
              out,
              inactive,
              lane,
              from,
              Math.min(from + constant, end),
              -1,
              first);
        }
        case PARTITIONED_ADD, PARTITIONED_MIN, PARTITIONED_MAX ->
            combine(op - PARTITIONED_ADD, in, out, inactive, lane, first, end, second[lane], first);
        case PARTITION -> {
          int bits = 0;
          for (int other = first; other < end; other++) {
            if (!inactive[other] && sameValue(in, other, lane)) {
              bits |= 1 << (other - first);
            }
          }
          ((int[]) out)[lane] = bits;
        }
        case BROADCAST -> read(in, out, lane, first + constant, inactive, first, end);
        case SHUFFLE ->
            read(in, out, lane, first + operand(second, constant, lane), inactive, first, end);
        case SHUFFLE_XOR ->
            read(
                in,
                out,
                lane,
                first + (self ^ operand(second, constant, lane)),
                inactive,
                first,
                end);
        case SHUFFLE_UP ->
            read(in, out, lane, lane - operand(second, constant, lane), inactive, first, end);
        case SHUFFLE_DOWN ->
            read(in, out, lane, lane + operand(second, constant, lane), inactive, first, end);
        case BALLOT -> {
          int bits = 0;
          for (int other = first; other < end && other < first + 32; other++) {
            if (!inactive[other] && ((boolean[]) in)[other]) {
              bits |= 1 << (other - first);
            }
          }
          ((int[]) out)[lane] = bits;
        }
        case ANY, ALL -> {
          boolean all = true;
          boolean any = false;
          for (int other = first; other < end; other++) {
            if (!inactive[other]) {
              all &= ((boolean[]) in)[other];
              any |= ((boolean[]) in)[other];
            }
          }
          ((boolean[]) out)[lane] = op == ANY ? any : all;
        }
        case ELECT -> {
          int lowest = first;
          while (inactive[lowest]) {
            lowest++;
          }
          ((boolean[]) out)[lane] = lowest == lane;
        }
        default -> throw new IllegalArgumentException("no subgroup operation " + op);
      }
    }
  }

  /** A shuffle's lane, mask or delta: the lane's own, or the constant all share. */
  private static int operand(int[] second, int constant, int lane) {
    return second == null ? constant : second[lane];
  }

  private static boolean sameValue(Object in, int a, int b) {
    return switch (in) {
      case int[] values -> values[a] == values[b];
      case long[] values -> values[a] == values[b];
      default ->
          throw new IllegalArgumentException(
              "no subgroup partition of " + in.getClass().getSimpleName());
    };
  }

  /**
   * {@code out[lane]} = the values of the active lanes {@code from .. to-1} combined by ADD, MIN or
   * MAX, in lane order; with a {@code mask} other than -1, only those whose bit (counted from
   * {@code first}) it sets.
   */
  private static void combine(
      int op,
      Object in,
      Object out,
      boolean[] inactive,
      int lane,
      int from,
      int to,
      int mask,
      int first) {
    switch (in) {
      case int[] values -> {
        int result = op == ADD ? 0 : op == MIN ? Integer.MAX_VALUE : Integer.MIN_VALUE;
        boolean started = false;
        for (int other = from; other < to; other++) {
          if (takesPart(inactive, other, mask, first)) {
            result =
                op == ADD
                    ? (started ? result + values[other] : values[other])
                    : op == MIN ? Math.min(result, values[other]) : Math.max(result, values[other]);
            started = true;
          }
        }
        ((int[]) out)[lane] = result;
      }
      case long[] values -> {
        long result = op == ADD ? 0 : op == MIN ? Long.MAX_VALUE : Long.MIN_VALUE;
        boolean started = false;
        for (int other = from; other < to; other++) {
          if (takesPart(inactive, other, mask, first)) {
            result =
                op == ADD
                    ? (started ? result + values[other] : values[other])
                    : op == MIN ? Math.min(result, values[other]) : Math.max(result, values[other]);
            started = true;
          }
        }
        ((long[]) out)[lane] = result;
      }
      case float[] values -> {
        float result =
            op == ADD ? 0f : op == MIN ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY;
        boolean started = false;
        for (int other = from; other < to; other++) {
          if (takesPart(inactive, other, mask, first)) {
            result =
                op == ADD
                    ? (started ? result + values[other] : values[other])
                    : op == MIN ? Math.min(result, values[other]) : Math.max(result, values[other]);
            started = true;
          }
        }
        ((float[]) out)[lane] = result;
      }
      case double[] values -> {
        double result =
            op == ADD ? 0d : op == MIN ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        boolean started = false;
        for (int other = from; other < to; other++) {
          if (takesPart(inactive, other, mask, first)) {
            result =
                op == ADD
                    ? (started ? result + values[other] : values[other])
                    : op == MIN ? Math.min(result, values[other]) : Math.max(result, values[other]);
            started = true;
          }
        }
        ((double[]) out)[lane] = result;
      }
      default ->
          throw new IllegalArgumentException(
              "no subgroup arithmetic on " + in.getClass().getSimpleName());
    }
  }

  private static boolean takesPart(boolean[] inactive, int lane, int mask, int first) {
    return !inactive[lane] && (mask == -1 || (mask >>> (lane - first) & 1) != 0);
  }

  /**
   * {@code out[lane] = in[source]}, or {@code in[lane]} where the source lane is outside {@code
   * first .. end-1} or inactive.
   */
  private static void read(
      Object in, Object out, int lane, int source, boolean[] inactive, int first, int end) {
    int from = source >= first && source < end && !inactive[source] ? source : lane;
    System.arraycopy(in, from, out, lane, 1);
  }
}
