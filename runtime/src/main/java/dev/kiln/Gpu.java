package dev.kiln;

import dev.kiln.abi.NumericType;
import dev.kiln.abi.SubgroupLanes;
import dev.kiln.cpu.Invocation;
import dev.kiln.matrix.Matrices;
import dev.kiln.matrix.MatrixA;
import dev.kiln.matrix.MatrixAccumulator;
import dev.kiln.matrix.MatrixB;
import dev.kiln.matrix.MatrixElement;
import dev.kiln.matrix.MatrixLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Kernel intrinsics. Inside a kernel compiled by Kiln each call becomes the matching GPU built-in;
 * when the CPU backend runs the kernel as Java they answer for the invocation being run. Called
 * outside a kernel they throw {@link IllegalStateException}.
 */
public final class Gpu {
  private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final VarHandle FLOATS = MethodHandles.arrayElementVarHandle(float[].class);

  private Gpu() {}

  /**
   * Index of this invocation in the whole dispatch along {@code axis} (0, 1 or 2).
   *
   * @param axis 0, 1 or 2 (x, y or z)
   * @return the index
   */
  public static int globalId(int axis) {
    return Invocation.current().globalId(axis);
  }

  /**
   * Index of this invocation inside its workgroup along {@code axis}.
   *
   * @param axis 0, 1 or 2 (x, y or z)
   * @return the index
   */
  public static int localId(int axis) {
    return Invocation.current().localId(axis);
  }

  /**
   * Index of this invocation's workgroup along {@code axis}.
   *
   * @param axis 0, 1 or 2 (x, y or z)
   * @return the index
   */
  public static int workgroupId(int axis) {
    return Invocation.current().workgroupId(axis);
  }

  /**
   * Number of workgroups in the dispatch along {@code axis}.
   *
   * @param axis 0, 1 or 2 (x, y or z)
   * @return the count
   */
  public static int numWorkgroups(int axis) {
    return Invocation.current().numWorkgroups(axis);
  }

  /**
   * Workgroup memory: one array of {@code length} floats per workgroup, the same array for all its
   * invocations. Only as the initializer of a local declared at the top of a kernel body, with a
   * constant length: {@code float[] tile = Gpu.sharedFloats(256);}.
   *
   * @param length the number of elements, a constant
   * @return the workgroup's array
   */
  public static float[] sharedFloats(int length) {
    return (float[]) Invocation.current().shared(NumericType.FLOAT, length);
  }

  /**
   * Workgroup memory of ints; see {@link #sharedFloats}.
   *
   * @param length the number of elements, a constant
   * @return the workgroup's array
   */
  public static int[] sharedInts(int length) {
    return (int[]) Invocation.current().shared(NumericType.INT, length);
  }

  /**
   * Workgroup memory of longs; see {@link #sharedFloats}. The device needs 64-bit integers ({@code
   * shaderInt64}).
   *
   * @param length the number of elements, a constant
   * @return the workgroup's array
   */
  public static long[] sharedLongs(int length) {
    return (long[]) Invocation.current().shared(NumericType.LONG, length);
  }

  /**
   * Workgroup memory of doubles; see {@link #sharedFloats}. The device needs 64-bit floats ({@code
   * shaderFloat64}).
   *
   * @param length the number of elements, a constant
   * @return the workgroup's array
   */
  public static double[] sharedDoubles(int length) {
    return (double[]) Invocation.current().shared(NumericType.DOUBLE, length);
  }

  /**
   * Workgroup memory of shorts; see {@link #sharedFloats}. On Vulkan each element takes 4 bytes of
   * workgroup memory, holding the short's value as Java widens it.
   *
   * @param length the number of elements, a constant
   * @return the workgroup's array
   */
  public static short[] sharedShorts(int length) {
    return (short[]) Invocation.current().shared(NumericType.SHORT, length);
  }

  /**
   * Workgroup memory of shorts at 2 bytes each (where {@link #sharedShorts} takes 4): the place to
   * stage float16 tiles for {@link #loadMatrixA} and {@link #loadMatrixB}, which read it as it is.
   * Element accesses give Java's values, as for any short array (on Vulkan the elements are float16
   * values holding the shorts' bits). The device needs 16-bit integers and floats ({@code
   * shaderInt16}, {@code shaderFloat16}).
   *
   * @param length the number of elements, a constant
   * @return the workgroup's array
   */
  public static short[] sharedPackedShorts(int length) {
    return (short[]) Invocation.current().shared(NumericType.SHORT, length);
  }

  /**
   * Workgroup memory of bytes; see {@link #sharedShorts}.
   *
   * @param length the number of elements, a constant
   * @return the workgroup's array
   */
  public static byte[] sharedBytes(int length) {
    return (byte[]) Invocation.current().shared(NumericType.BYTE, length);
  }

  /**
   * Workgroup memory of chars; see {@link #sharedShorts}.
   *
   * @param length the number of elements, a constant
   * @return the workgroup's array
   */
  public static char[] sharedChars(int length) {
    return (char[]) Invocation.current().shared(NumericType.CHAR, length);
  }

  /**
   * Workgroup memory of booleans; see {@link #sharedFloats}.
   *
   * @param length the number of elements, a constant
   * @return the workgroup's array
   */
  public static boolean[] sharedBooleans(int length) {
    return (boolean[]) Invocation.current().shared(NumericType.BOOLEAN, length);
  }

  /**
   * Waits until every invocation of the workgroup has come here, and makes their earlier writes to
   * shared arrays and buffers visible to each other. Every invocation of the workgroup must reach
   * the same barriers; a kernel with barriers runs whole workgroups, so it checks its own indices.
   */
  public static void barrier() {
    Invocation.current().barrier();
  }

  // Float math. On the GPU these are GLSL.std.450's functions, within Vulkan's precision bounds
  // (floor and ceil are exact); here they are Java's, rounded once to float.

  /**
   * The largest integral float not above {@code x}; exact.
   *
   * @param x the argument
   * @return the result
   */
  public static float floor(float x) {
    return (float) Math.floor(x);
  }

  /**
   * The smallest integral float not below {@code x}; exact.
   *
   * @param x the argument
   * @return the result
   */
  public static float ceil(float x) {
    return (float) Math.ceil(x);
  }

  /**
   * The square root.
   *
   * @param x the argument
   * @return the result
   */
  public static float sqrt(float x) {
    return (float) Math.sqrt(x);
  }

  /**
   * {@code 1 / sqrt(x)}.
   *
   * @param x the argument
   * @return the result
   */
  public static float inverseSqrt(float x) {
    return (float) (1.0 / Math.sqrt(x));
  }

  /**
   * {@code e^x}.
   *
   * @param x the argument
   * @return the result
   */
  public static float exp(float x) {
    return (float) Math.exp(x);
  }

  /**
   * {@code 2^x}.
   *
   * @param x the argument
   * @return the result
   */
  public static float exp2(float x) {
    return (float) Math.pow(2.0, x);
  }

  /**
   * The natural logarithm.
   *
   * @param x the argument
   * @return the result
   */
  public static float log(float x) {
    return (float) Math.log(x);
  }

  /**
   * The base-2 logarithm.
   *
   * @param x the argument
   * @return the result
   */
  public static float log2(float x) {
    return (float) (Math.log(x) / Math.log(2.0));
  }

  /**
   * {@code x^y}.
   *
   * @param x the base
   * @param y the exponent
   * @return the result
   */
  public static float pow(float x, float y) {
    return (float) Math.pow(x, y);
  }

  /**
   * The sine, in radians.
   *
   * @param x the argument
   * @return the result
   */
  public static float sin(float x) {
    return (float) Math.sin(x);
  }

  /**
   * The cosine, in radians.
   *
   * @param x the argument
   * @return the result
   */
  public static float cos(float x) {
    return (float) Math.cos(x);
  }

  /**
   * The tangent, in radians.
   *
   * @param x the argument
   * @return the result
   */
  public static float tan(float x) {
    return (float) Math.tan(x);
  }

  /**
   * The hyperbolic tangent.
   *
   * @param x the argument
   * @return the result
   */
  public static float tanh(float x) {
    return (float) Math.tanh(x);
  }

  /**
   * The angle of the point (x, y), in radians.
   *
   * @param y the point's y coordinate
   * @param x the point's x coordinate
   * @return the angle, in [-pi, pi]
   */
  public static float atan2(float y, float x) {
    return (float) Math.atan2(y, x);
  }

  /**
   * {@code a * b + c}; exact here, and on a GPU that fuses it.
   *
   * @param a the first factor
   * @param b the second factor
   * @param c the addend
   * @return the result
   */
  public static float fma(float a, float b, float c) {
    return Math.fma(a, b, c);
  }

  /**
   * The value of float16 bits for arithmetic: {@code Float.float16ToFloat(bits)}, exact, except
   * that a NaN's bits are the device's (as a product's are). On a device that keeps float16
   * subnormals (shaderDenormPreserveFloat16) it is the GPU's own conversion, elsewhere about eight
   * integer and float operations; {@code Float.float16ToFloat} is about a dozen, and exact to the
   * NaN's bits everywhere.
   *
   * @param bits float16 bits
   * @return their value
   */
  public static float float16ToFloat(short bits) {
    return Float.float16ToFloat(bits);
  }

  // Subgroups: the invocations a GPU runs in lock step (32 on NVIDIA). The CPU backend emulates
  // subgroups of -Dkiln.cpu.subgroupSize lanes (32 by default; dev.kiln.abi.SubgroupLanes says
  // how),
  // reached by its lanes in subgroup-uniform control flow.

  /**
   * Invocations per subgroup.
   *
   * @return the size
   */
  public static int subgroupSize() {
    return Invocation.current().subgroupSize();
  }

  /**
   * This invocation's index in its subgroup.
   *
   * @return the index
   */
  public static int subgroupInvocationId() {
    return Invocation.current().subgroupInvocationId();
  }

  /**
   * This invocation's subgroup's index in the workgroup.
   *
   * @return the index
   */
  public static int subgroupId() {
    return Invocation.current().subgroupId();
  }

  /**
   * Subgroups per workgroup.
   *
   * @return the count
   */
  public static int numSubgroups() {
    return Invocation.current().numSubgroups();
  }

  /**
   * The sum over the subgroup's active invocations (for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @return the sum
   */
  public static int subgroupAdd(int value) {
    return Invocation.current().subgroup(SubgroupLanes.ADD, value, 0, 0);
  }

  /**
   * The sum over the subgroup's active invocations (for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @return the sum
   */
  public static float subgroupAdd(float value) {
    return Invocation.current().subgroup(SubgroupLanes.ADD, value, 0, 0);
  }

  /**
   * The minimum over the subgroup's active invocations.
   *
   * @param value this invocation's value
   * @return the minimum
   */
  public static int subgroupMin(int value) {
    return Invocation.current().subgroup(SubgroupLanes.MIN, value, 0, 0);
  }

  /**
   * The minimum over the subgroup's active invocations.
   *
   * @param value this invocation's value
   * @return the minimum
   */
  public static float subgroupMin(float value) {
    return Invocation.current().subgroup(SubgroupLanes.MIN, value, 0, 0);
  }

  /**
   * The maximum over the subgroup's active invocations.
   *
   * @param value this invocation's value
   * @return the maximum
   */
  public static int subgroupMax(int value) {
    return Invocation.current().subgroup(SubgroupLanes.MAX, value, 0, 0);
  }

  /**
   * The maximum over the subgroup's active invocations.
   *
   * @param value this invocation's value
   * @return the maximum
   */
  public static float subgroupMax(float value) {
    return Invocation.current().subgroup(SubgroupLanes.MAX, value, 0, 0);
  }

  /**
   * {@code value} of the subgroup's invocation number {@code lane}, a constant.
   *
   * @param value this invocation's value
   * @param lane the invocation to read, a constant
   * @return {@code lane}'s value
   */
  public static int subgroupBroadcast(int value, int lane) {
    return Invocation.current().subgroup(SubgroupLanes.BROADCAST, value, 0, lane);
  }

  /**
   * {@code value} of the subgroup's invocation number {@code lane}, a constant.
   *
   * @param value this invocation's value
   * @param lane the invocation to read, a constant
   * @return {@code lane}'s value
   */
  public static float subgroupBroadcast(float value, int lane) {
    return Invocation.current().subgroup(SubgroupLanes.BROADCAST, value, 0, lane);
  }

  /**
   * The sum over the subgroup's active invocations, of longs (the device needs {@code
   * shaderInt64}).
   *
   * @param value this invocation's value
   * @return the sum
   */
  public static long subgroupAdd(long value) {
    return Invocation.current().subgroup(SubgroupLanes.ADD, value, 0, 0);
  }

  /**
   * The sum over the subgroup's active invocations, of doubles, in an order the GPU picks (the
   * device needs {@code shaderFloat64}).
   *
   * @param value this invocation's value
   * @return the sum
   */
  public static double subgroupAdd(double value) {
    return Invocation.current().subgroup(SubgroupLanes.ADD, value, 0, 0);
  }

  /**
   * The smallest over the subgroup's active invocations, of longs.
   *
   * @param value this invocation's value
   * @return the minimum
   */
  public static long subgroupMin(long value) {
    return Invocation.current().subgroup(SubgroupLanes.MIN, value, 0, 0);
  }

  /**
   * The smallest over the subgroup's active invocations, of doubles.
   *
   * @param value this invocation's value
   * @return the minimum
   */
  public static double subgroupMin(double value) {
    return Invocation.current().subgroup(SubgroupLanes.MIN, value, 0, 0);
  }

  /**
   * The largest over the subgroup's active invocations, of longs.
   *
   * @param value this invocation's value
   * @return the maximum
   */
  public static long subgroupMax(long value) {
    return Invocation.current().subgroup(SubgroupLanes.MAX, value, 0, 0);
  }

  /**
   * The largest over the subgroup's active invocations, of doubles.
   *
   * @param value this invocation's value
   * @return the maximum
   */
  public static double subgroupMax(double value) {
    return Invocation.current().subgroup(SubgroupLanes.MAX, value, 0, 0);
  }

  /**
   * {@code value} of the subgroup's invocation number {@code lane}, a constant, of longs.
   *
   * @param value this invocation's value
   * @param lane the invocation to read, a constant
   * @return {@code lane}'s value
   */
  public static long subgroupBroadcast(long value, int lane) {
    return Invocation.current().subgroup(SubgroupLanes.BROADCAST, value, 0, lane);
  }

  /**
   * {@code value} of the subgroup's invocation number {@code lane}, a constant, of doubles.
   *
   * @param value this invocation's value
   * @param lane the invocation to read, a constant
   * @return {@code lane}'s value
   */
  public static double subgroupBroadcast(double value, int lane) {
    return Invocation.current().subgroup(SubgroupLanes.BROADCAST, value, 0, lane);
  }

  /**
   * Bit k set where the subgroup's invocation k (k below 32) passes true.
   *
   * @param predicate this invocation's condition
   * @return the bits
   */
  public static int subgroupBallot(boolean predicate) {
    return Invocation.current().subgroupBallot(predicate);
  }

  /**
   * Whether some active invocation of the subgroup passes true.
   *
   * @param predicate this invocation's condition
   * @return whether any holds
   */
  public static boolean subgroupAny(boolean predicate) {
    return Invocation.current().subgroupVote(SubgroupLanes.ANY, predicate);
  }

  /**
   * Whether every active invocation of the subgroup passes true.
   *
   * @param predicate this invocation's condition
   * @return whether all hold
   */
  public static boolean subgroupAll(boolean predicate) {
    return Invocation.current().subgroupVote(SubgroupLanes.ALL, predicate);
  }

  /**
   * True in exactly one active invocation of the subgroup (the lowest), false in the others.
   *
   * @return whether this invocation is the one elected
   */
  public static boolean subgroupElect() {
    return Invocation.current().subgroupVote(SubgroupLanes.ELECT, false);
  }

  // Partitions (NVIDIA's VK_NV_shader_subgroup_partitioned): lanes grouped by equal values, named
  // by the bits of an int (subgroups of up to 32 lanes).

  /**
   * The lanes of the subgroup (below 32) whose value equals this one's, as bits: the partition this
   * lane belongs to. Needs the device's partitioned subgroup operations.
   *
   * @param value this invocation's value
   * @return bit k set where lane k has the same value
   */
  public static int subgroupPartition(int value) {
    return Invocation.current().subgroup(SubgroupLanes.PARTITION, value, 0, 0);
  }

  /**
   * {@link #subgroupPartition(int)} of a long.
   *
   * @param value this invocation's value
   * @return bit k set where lane k has the same value
   */
  public static int subgroupPartition(long value) {
    return Invocation.current().subgroupPartition(value);
  }

  /**
   * The sum over the active lanes of {@code partition} (a {@link #subgroupPartition(int)} result;
   * for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @param partition the lanes to combine, this one's among them
   * @return the result
   */
  public static int subgroupPartitionedAdd(int value, int partition) {
    return Invocation.current().subgroup(SubgroupLanes.PARTITIONED_ADD, value, partition, 0);
  }

  /**
   * The sum over the active lanes of {@code partition} (a {@link #subgroupPartition(int)} result;
   * for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @param partition the lanes to combine, this one's among them
   * @return the result
   */
  public static long subgroupPartitionedAdd(long value, int partition) {
    return Invocation.current().subgroup(SubgroupLanes.PARTITIONED_ADD, value, partition, 0);
  }

  /**
   * The sum over the active lanes of {@code partition} (a {@link #subgroupPartition(int)} result;
   * for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @param partition the lanes to combine, this one's among them
   * @return the result
   */
  public static float subgroupPartitionedAdd(float value, int partition) {
    return Invocation.current().subgroup(SubgroupLanes.PARTITIONED_ADD, value, partition, 0);
  }

  /**
   * The sum over the active lanes of {@code partition} (a {@link #subgroupPartition(int)} result;
   * for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @param partition the lanes to combine, this one's among them
   * @return the result
   */
  public static double subgroupPartitionedAdd(double value, int partition) {
    return Invocation.current().subgroup(SubgroupLanes.PARTITIONED_ADD, value, partition, 0);
  }

  /**
   * The minimum over the active lanes of {@code partition} (a {@link #subgroupPartition(int)}
   * result; for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @param partition the lanes to combine, this one's among them
   * @return the result
   */
  public static int subgroupPartitionedMin(int value, int partition) {
    return Invocation.current().subgroup(SubgroupLanes.PARTITIONED_MIN, value, partition, 0);
  }

  /**
   * The minimum over the active lanes of {@code partition} (a {@link #subgroupPartition(int)}
   * result; for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @param partition the lanes to combine, this one's among them
   * @return the result
   */
  public static long subgroupPartitionedMin(long value, int partition) {
    return Invocation.current().subgroup(SubgroupLanes.PARTITIONED_MIN, value, partition, 0);
  }

  /**
   * The minimum over the active lanes of {@code partition} (a {@link #subgroupPartition(int)}
   * result; for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @param partition the lanes to combine, this one's among them
   * @return the result
   */
  public static float subgroupPartitionedMin(float value, int partition) {
    return Invocation.current().subgroup(SubgroupLanes.PARTITIONED_MIN, value, partition, 0);
  }

  /**
   * The minimum over the active lanes of {@code partition} (a {@link #subgroupPartition(int)}
   * result; for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @param partition the lanes to combine, this one's among them
   * @return the result
   */
  public static double subgroupPartitionedMin(double value, int partition) {
    return Invocation.current().subgroup(SubgroupLanes.PARTITIONED_MIN, value, partition, 0);
  }

  /**
   * The maximum over the active lanes of {@code partition} (a {@link #subgroupPartition(int)}
   * result; for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @param partition the lanes to combine, this one's among them
   * @return the result
   */
  public static int subgroupPartitionedMax(int value, int partition) {
    return Invocation.current().subgroup(SubgroupLanes.PARTITIONED_MAX, value, partition, 0);
  }

  /**
   * The maximum over the active lanes of {@code partition} (a {@link #subgroupPartition(int)}
   * result; for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @param partition the lanes to combine, this one's among them
   * @return the result
   */
  public static long subgroupPartitionedMax(long value, int partition) {
    return Invocation.current().subgroup(SubgroupLanes.PARTITIONED_MAX, value, partition, 0);
  }

  /**
   * The maximum over the active lanes of {@code partition} (a {@link #subgroupPartition(int)}
   * result; for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @param partition the lanes to combine, this one's among them
   * @return the result
   */
  public static float subgroupPartitionedMax(float value, int partition) {
    return Invocation.current().subgroup(SubgroupLanes.PARTITIONED_MAX, value, partition, 0);
  }

  /**
   * The maximum over the active lanes of {@code partition} (a {@link #subgroupPartition(int)}
   * result; for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @param partition the lanes to combine, this one's among them
   * @return the result
   */
  public static double subgroupPartitionedMax(double value, int partition) {
    return Invocation.current().subgroup(SubgroupLanes.PARTITIONED_MAX, value, partition, 0);
  }

  // Shuffles, scans and clustered reductions.

  /**
   * The value of the invocation whose index in the subgroup is {@code lane}. A lane that is not
   * active or not in the subgroup gives a value the GPU picks; the CPU backend gives this
   * invocation's own.
   *
   * @param value this invocation's value
   * @param lane the lane to read
   * @return the result
   */
  public static int subgroupShuffle(int value, int lane) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE, value, lane, 0);
  }

  /**
   * The value of the invocation whose index in the subgroup is {@code lane}. A lane that is not
   * active or not in the subgroup gives a value the GPU picks; the CPU backend gives this
   * invocation's own.
   *
   * @param value this invocation's value
   * @param lane the lane to read
   * @return the result
   */
  public static long subgroupShuffle(long value, int lane) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE, value, lane, 0);
  }

  /**
   * The value of the invocation whose index in the subgroup is {@code lane}. A lane that is not
   * active or not in the subgroup gives a value the GPU picks; the CPU backend gives this
   * invocation's own.
   *
   * @param value this invocation's value
   * @param lane the lane to read
   * @return the result
   */
  public static float subgroupShuffle(float value, int lane) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE, value, lane, 0);
  }

  /**
   * The value of the invocation whose index in the subgroup is {@code lane}. A lane that is not
   * active or not in the subgroup gives a value the GPU picks; the CPU backend gives this
   * invocation's own.
   *
   * @param value this invocation's value
   * @param lane the lane to read
   * @return the result
   */
  public static double subgroupShuffle(double value, int lane) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE, value, lane, 0);
  }

  /**
   * The value of the invocation whose index in the subgroup is this one's xor {@code mask}: the
   * butterfly step of reductions across lanes. A lane outside the subgroup, or inactive, as for
   * {@link #subgroupShuffle(int, int)}.
   *
   * @param value this invocation's value
   * @param mask xor'ed with this invocation's index
   * @return the result
   */
  public static int subgroupShuffleXor(int value, int mask) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE_XOR, value, mask, 0);
  }

  /**
   * The value of the invocation whose index in the subgroup is this one's xor {@code mask}: the
   * butterfly step of reductions across lanes. A lane outside the subgroup, or inactive, as for
   * {@link #subgroupShuffle(int, int)}.
   *
   * @param value this invocation's value
   * @param mask xor'ed with this invocation's index
   * @return the result
   */
  public static long subgroupShuffleXor(long value, int mask) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE_XOR, value, mask, 0);
  }

  /**
   * The value of the invocation whose index in the subgroup is this one's xor {@code mask}: the
   * butterfly step of reductions across lanes. A lane outside the subgroup, or inactive, as for
   * {@link #subgroupShuffle(int, int)}.
   *
   * @param value this invocation's value
   * @param mask xor'ed with this invocation's index
   * @return the result
   */
  public static float subgroupShuffleXor(float value, int mask) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE_XOR, value, mask, 0);
  }

  /**
   * The value of the invocation whose index in the subgroup is this one's xor {@code mask}: the
   * butterfly step of reductions across lanes. A lane outside the subgroup, or inactive, as for
   * {@link #subgroupShuffle(int, int)}.
   *
   * @param value this invocation's value
   * @param mask xor'ed with this invocation's index
   * @return the result
   */
  public static double subgroupShuffleXor(double value, int mask) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE_XOR, value, mask, 0);
  }

  /**
   * The value of the invocation {@code delta} lanes below this one in the subgroup; where there is
   * none, a value the GPU picks (the CPU backend: this invocation's own).
   *
   * @param value this invocation's value
   * @param delta how many lanes down to read
   * @return the result
   */
  public static int subgroupShuffleUp(int value, int delta) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE_UP, value, delta, 0);
  }

  /**
   * The value of the invocation {@code delta} lanes below this one in the subgroup; where there is
   * none, a value the GPU picks (the CPU backend: this invocation's own).
   *
   * @param value this invocation's value
   * @param delta how many lanes down to read
   * @return the result
   */
  public static long subgroupShuffleUp(long value, int delta) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE_UP, value, delta, 0);
  }

  /**
   * The value of the invocation {@code delta} lanes below this one in the subgroup; where there is
   * none, a value the GPU picks (the CPU backend: this invocation's own).
   *
   * @param value this invocation's value
   * @param delta how many lanes down to read
   * @return the result
   */
  public static float subgroupShuffleUp(float value, int delta) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE_UP, value, delta, 0);
  }

  /**
   * The value of the invocation {@code delta} lanes below this one in the subgroup; where there is
   * none, a value the GPU picks (the CPU backend: this invocation's own).
   *
   * @param value this invocation's value
   * @param delta how many lanes down to read
   * @return the result
   */
  public static double subgroupShuffleUp(double value, int delta) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE_UP, value, delta, 0);
  }

  /**
   * The value of the invocation {@code delta} lanes above this one in the subgroup; where there is
   * none, a value the GPU picks (the CPU backend: this invocation's own).
   *
   * @param value this invocation's value
   * @param delta how many lanes up to read
   * @return the result
   */
  public static int subgroupShuffleDown(int value, int delta) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE_DOWN, value, delta, 0);
  }

  /**
   * The value of the invocation {@code delta} lanes above this one in the subgroup; where there is
   * none, a value the GPU picks (the CPU backend: this invocation's own).
   *
   * @param value this invocation's value
   * @param delta how many lanes up to read
   * @return the result
   */
  public static long subgroupShuffleDown(long value, int delta) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE_DOWN, value, delta, 0);
  }

  /**
   * The value of the invocation {@code delta} lanes above this one in the subgroup; where there is
   * none, a value the GPU picks (the CPU backend: this invocation's own).
   *
   * @param value this invocation's value
   * @param delta how many lanes up to read
   * @return the result
   */
  public static float subgroupShuffleDown(float value, int delta) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE_DOWN, value, delta, 0);
  }

  /**
   * The value of the invocation {@code delta} lanes above this one in the subgroup; where there is
   * none, a value the GPU picks (the CPU backend: this invocation's own).
   *
   * @param value this invocation's value
   * @param delta how many lanes up to read
   * @return the result
   */
  public static double subgroupShuffleDown(double value, int delta) {
    return Invocation.current().subgroup(SubgroupLanes.SHUFFLE_DOWN, value, delta, 0);
  }

  /**
   * The sum of the values of the subgroup's active invocations up to this one, this one's included
   * (for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @return the result
   */
  public static int subgroupInclusiveAdd(int value) {
    return Invocation.current().subgroup(SubgroupLanes.INCLUSIVE_ADD, value, 0, 0);
  }

  /**
   * The sum of the values of the subgroup's active invocations up to this one, this one's included
   * (for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @return the result
   */
  public static long subgroupInclusiveAdd(long value) {
    return Invocation.current().subgroup(SubgroupLanes.INCLUSIVE_ADD, value, 0, 0);
  }

  /**
   * The sum of the values of the subgroup's active invocations up to this one, this one's included
   * (for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @return the result
   */
  public static float subgroupInclusiveAdd(float value) {
    return Invocation.current().subgroup(SubgroupLanes.INCLUSIVE_ADD, value, 0, 0);
  }

  /**
   * The sum of the values of the subgroup's active invocations up to this one, this one's included
   * (for floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @return the result
   */
  public static double subgroupInclusiveAdd(double value) {
    return Invocation.current().subgroup(SubgroupLanes.INCLUSIVE_ADD, value, 0, 0);
  }

  /**
   * The sum of the values of the subgroup's active invocations below this one; 0 in the lowest (for
   * floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @return the result
   */
  public static int subgroupExclusiveAdd(int value) {
    return Invocation.current().subgroup(SubgroupLanes.EXCLUSIVE_ADD, value, 0, 0);
  }

  /**
   * The sum of the values of the subgroup's active invocations below this one; 0 in the lowest (for
   * floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @return the result
   */
  public static long subgroupExclusiveAdd(long value) {
    return Invocation.current().subgroup(SubgroupLanes.EXCLUSIVE_ADD, value, 0, 0);
  }

  /**
   * The sum of the values of the subgroup's active invocations below this one; 0 in the lowest (for
   * floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @return the result
   */
  public static float subgroupExclusiveAdd(float value) {
    return Invocation.current().subgroup(SubgroupLanes.EXCLUSIVE_ADD, value, 0, 0);
  }

  /**
   * The sum of the values of the subgroup's active invocations below this one; 0 in the lowest (for
   * floats in an order the GPU picks).
   *
   * @param value this invocation's value
   * @return the result
   */
  public static double subgroupExclusiveAdd(double value) {
    return Invocation.current().subgroup(SubgroupLanes.EXCLUSIVE_ADD, value, 0, 0);
  }

  /**
   * The sum over the active invocations of this one's cluster: {@code clusterSize} consecutive
   * lanes, aligned (for floats in an order the GPU picks). Needs the device's clustered subgroup
   * operations.
   *
   * @param value this invocation's value
   * @param clusterSize a constant power of two, at most the subgroup size
   * @return the result
   */
  public static int subgroupClusteredAdd(int value, int clusterSize) {
    return Invocation.current().subgroup(SubgroupLanes.CLUSTERED_ADD, value, 0, clusterSize);
  }

  /**
   * The sum over the active invocations of this one's cluster: {@code clusterSize} consecutive
   * lanes, aligned (for floats in an order the GPU picks). Needs the device's clustered subgroup
   * operations.
   *
   * @param value this invocation's value
   * @param clusterSize a constant power of two, at most the subgroup size
   * @return the result
   */
  public static long subgroupClusteredAdd(long value, int clusterSize) {
    return Invocation.current().subgroup(SubgroupLanes.CLUSTERED_ADD, value, 0, clusterSize);
  }

  /**
   * The sum over the active invocations of this one's cluster: {@code clusterSize} consecutive
   * lanes, aligned (for floats in an order the GPU picks). Needs the device's clustered subgroup
   * operations.
   *
   * @param value this invocation's value
   * @param clusterSize a constant power of two, at most the subgroup size
   * @return the result
   */
  public static float subgroupClusteredAdd(float value, int clusterSize) {
    return Invocation.current().subgroup(SubgroupLanes.CLUSTERED_ADD, value, 0, clusterSize);
  }

  /**
   * The sum over the active invocations of this one's cluster: {@code clusterSize} consecutive
   * lanes, aligned (for floats in an order the GPU picks). Needs the device's clustered subgroup
   * operations.
   *
   * @param value this invocation's value
   * @param clusterSize a constant power of two, at most the subgroup size
   * @return the result
   */
  public static double subgroupClusteredAdd(double value, int clusterSize) {
    return Invocation.current().subgroup(SubgroupLanes.CLUSTERED_ADD, value, 0, clusterSize);
  }

  /**
   * The minimum over the active invocations of this one's cluster ({@link
   * #subgroupClusteredAdd(int, int)}'s clusters).
   *
   * @param value this invocation's value
   * @param clusterSize a constant power of two, at most the subgroup size
   * @return the result
   */
  public static int subgroupClusteredMin(int value, int clusterSize) {
    return Invocation.current().subgroup(SubgroupLanes.CLUSTERED_MIN, value, 0, clusterSize);
  }

  /**
   * The minimum over the active invocations of this one's cluster ({@link
   * #subgroupClusteredAdd(int, int)}'s clusters).
   *
   * @param value this invocation's value
   * @param clusterSize a constant power of two, at most the subgroup size
   * @return the result
   */
  public static long subgroupClusteredMin(long value, int clusterSize) {
    return Invocation.current().subgroup(SubgroupLanes.CLUSTERED_MIN, value, 0, clusterSize);
  }

  /**
   * The minimum over the active invocations of this one's cluster ({@link
   * #subgroupClusteredAdd(int, int)}'s clusters).
   *
   * @param value this invocation's value
   * @param clusterSize a constant power of two, at most the subgroup size
   * @return the result
   */
  public static float subgroupClusteredMin(float value, int clusterSize) {
    return Invocation.current().subgroup(SubgroupLanes.CLUSTERED_MIN, value, 0, clusterSize);
  }

  /**
   * The minimum over the active invocations of this one's cluster ({@link
   * #subgroupClusteredAdd(int, int)}'s clusters).
   *
   * @param value this invocation's value
   * @param clusterSize a constant power of two, at most the subgroup size
   * @return the result
   */
  public static double subgroupClusteredMin(double value, int clusterSize) {
    return Invocation.current().subgroup(SubgroupLanes.CLUSTERED_MIN, value, 0, clusterSize);
  }

  /**
   * The maximum over the active invocations of this one's cluster ({@link
   * #subgroupClusteredAdd(int, int)}'s clusters).
   *
   * @param value this invocation's value
   * @param clusterSize a constant power of two, at most the subgroup size
   * @return the result
   */
  public static int subgroupClusteredMax(int value, int clusterSize) {
    return Invocation.current().subgroup(SubgroupLanes.CLUSTERED_MAX, value, 0, clusterSize);
  }

  /**
   * The maximum over the active invocations of this one's cluster ({@link
   * #subgroupClusteredAdd(int, int)}'s clusters).
   *
   * @param value this invocation's value
   * @param clusterSize a constant power of two, at most the subgroup size
   * @return the result
   */
  public static long subgroupClusteredMax(long value, int clusterSize) {
    return Invocation.current().subgroup(SubgroupLanes.CLUSTERED_MAX, value, 0, clusterSize);
  }

  /**
   * The maximum over the active invocations of this one's cluster ({@link
   * #subgroupClusteredAdd(int, int)}'s clusters).
   *
   * @param value this invocation's value
   * @param clusterSize a constant power of two, at most the subgroup size
   * @return the result
   */
  public static float subgroupClusteredMax(float value, int clusterSize) {
    return Invocation.current().subgroup(SubgroupLanes.CLUSTERED_MAX, value, 0, clusterSize);
  }

  /**
   * The maximum over the active invocations of this one's cluster ({@link
   * #subgroupClusteredAdd(int, int)}'s clusters).
   *
   * @param value this invocation's value
   * @param clusterSize a constant power of two, at most the subgroup size
   * @return the result
   */
  public static double subgroupClusteredMax(double value, int clusterSize) {
    return Invocation.current().subgroup(SubgroupLanes.CLUSTERED_MAX, value, 0, clusterSize);
  }

  /**
   * Adds {@code value} to {@code array[index]} atomically; returns the previous value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the amount to add
   * @return the value {@code array[index]} held before
   */
  public static int atomicAdd(int[] array, int index, int value) {
    return (int) INTS.getAndAdd(array, index, value);
  }

  /**
   * Stores the smaller of {@code array[index]} and {@code value} atomically; returns the previous
   * value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the value to compare with
   * @return the value {@code array[index]} held before
   */
  public static int atomicMin(int[] array, int index, int value) {
    return atomicUpdate(array, index, previous -> Math.min(previous, value));
  }

  /**
   * Stores the larger of {@code array[index]} and {@code value} atomically; returns the previous
   * value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the value to compare with
   * @return the value {@code array[index]} held before
   */
  public static int atomicMax(int[] array, int index, int value) {
    return atomicUpdate(array, index, previous -> Math.max(previous, value));
  }

  /**
   * Replaces {@code array[index]} by {@code update} of it, atomically; returns the previous value.
   */
  private static int atomicUpdate(
      int[] array, int index, java.util.function.IntUnaryOperator update) {
    int previous = (int) INTS.getVolatile(array, index);
    while (true) {
      int witness =
          (int) INTS.compareAndExchange(array, index, previous, update.applyAsInt(previous));
      if (witness == previous) {
        return previous;
      }
      previous = witness;
    }
  }

  /**
   * {@code array[index] &= value} atomically; returns the previous value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the mask
   * @return the value {@code array[index]} held before
   */
  public static int atomicAnd(int[] array, int index, int value) {
    return (int) INTS.getAndBitwiseAnd(array, index, value);
  }

  /**
   * {@code array[index] |= value} atomically; returns the previous value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the mask
   * @return the value {@code array[index]} held before
   */
  public static int atomicOr(int[] array, int index, int value) {
    return (int) INTS.getAndBitwiseOr(array, index, value);
  }

  /**
   * {@code array[index] ^= value} atomically; returns the previous value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the mask
   * @return the value {@code array[index]} held before
   */
  public static int atomicXor(int[] array, int index, int value) {
    return (int) INTS.getAndBitwiseXor(array, index, value);
  }

  /**
   * Stores {@code value} in {@code array[index]} atomically; returns the previous value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the value to store
   * @return the value {@code array[index]} held before
   */
  public static int atomicExchange(int[] array, int index, int value) {
    return (int) INTS.getAndSet(array, index, value);
  }

  /**
   * Stores {@code value} in {@code array[index]} if it holds {@code expected}; returns the previous
   * value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param expected the value to compare with
   * @param value the value to store
   * @return the value {@code array[index]} held before
   */
  public static int atomicCompareExchange(int[] array, int index, int expected, int value) {
    return (int) INTS.compareAndExchange(array, index, expected, value);
  }

  // long[] buffers: on Vulkan these need the device feature shaderBufferInt64Atomics

  /**
   * Adds {@code value} to {@code array[index]} atomically; returns the previous value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the amount to add
   * @return the value {@code array[index]} held before
   */
  public static long atomicAdd(long[] array, int index, long value) {
    return (long) LONGS.getAndAdd(array, index, value);
  }

  /**
   * Stores the smaller of {@code array[index]} and {@code value} atomically; returns the previous
   * value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the value to compare with
   * @return the value {@code array[index]} held before
   */
  public static long atomicMin(long[] array, int index, long value) {
    return atomicUpdate(array, index, previous -> Math.min(previous, value));
  }

  /**
   * Stores the larger of {@code array[index]} and {@code value} atomically; returns the previous
   * value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the value to compare with
   * @return the value {@code array[index]} held before
   */
  public static long atomicMax(long[] array, int index, long value) {
    return atomicUpdate(array, index, previous -> Math.max(previous, value));
  }

  private static long atomicUpdate(
      long[] array, int index, java.util.function.LongUnaryOperator update) {
    long previous = (long) LONGS.getVolatile(array, index);
    while (true) {
      long witness =
          (long) LONGS.compareAndExchange(array, index, previous, update.applyAsLong(previous));
      if (witness == previous) {
        return previous;
      }
      previous = witness;
    }
  }

  /**
   * {@code array[index] &= value} atomically; returns the previous value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the mask
   * @return the value {@code array[index]} held before
   */
  public static long atomicAnd(long[] array, int index, long value) {
    return (long) LONGS.getAndBitwiseAnd(array, index, value);
  }

  /**
   * {@code array[index] |= value} atomically; returns the previous value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the mask
   * @return the value {@code array[index]} held before
   */
  public static long atomicOr(long[] array, int index, long value) {
    return (long) LONGS.getAndBitwiseOr(array, index, value);
  }

  /**
   * {@code array[index] ^= value} atomically; returns the previous value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the mask
   * @return the value {@code array[index]} held before
   */
  public static long atomicXor(long[] array, int index, long value) {
    return (long) LONGS.getAndBitwiseXor(array, index, value);
  }

  /**
   * Stores {@code value} in {@code array[index]} atomically; returns the previous value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the value to store
   * @return the value {@code array[index]} held before
   */
  public static long atomicExchange(long[] array, int index, long value) {
    return (long) LONGS.getAndSet(array, index, value);
  }

  /**
   * Stores {@code value} in {@code array[index]} if it holds {@code expected}; returns the previous
   * value.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param expected the value to compare with
   * @param value the value to store
   * @return the value {@code array[index]} held before
   */
  public static long atomicCompareExchange(long[] array, int index, long expected, long value) {
    return (long) LONGS.compareAndExchange(array, index, expected, value);
  }

  /**
   * Adds {@code value} to {@code array[index]} atomically (a float buffer or {@link #sharedFloats}
   * array); returns the previous value. The sum of many adds depends on their order, which no
   * backend fixes. On Vulkan this needs the device feature shaderBufferFloat32AtomicAdd, or
   * shaderSharedFloat32AtomicAdd for workgroup memory.
   *
   * @param array a buffer parameter or workgroup array
   * @param index the element
   * @param value the amount to add
   * @return the value {@code array[index]} held before
   */
  public static float atomicAdd(float[] array, int index, float value) {
    return (float) FLOATS.getAndAdd(array, index, value);
  }

  // Cooperative matrices (dev.kiln.matrix): 16 x 16 tiles a subgroup holds together. Every
  // argument must be the same in all invocations of the subgroup, and all of them must make the
  // call: the processor checks both. Results are the device's, within docs/KERNELS.md's bound.

  /**
   * Loads the A tile (the left factor) whose element (row, column) is {@code bits[offset + row *
   * stride + column]} (row-major) or {@code bits[offset + column * stride + row]} (column-major).
   * Needs VK_KHR_cooperative_matrix.
   *
   * @param bits the 16-bit values' bits, a buffer
   * @param offset the index of element (0, 0)
   * @param stride the distance between rows (row-major) or columns (column-major)
   * @param element how the bits are read, a constant
   * @param layout a constant
   * @return the tile
   * @throws ArrayIndexOutOfBoundsException where the tile does not lie in {@code bits}
   */
  public static MatrixA loadMatrixA(
      short[] bits, int offset, int stride, MatrixElement element, MatrixLayout layout) {
    return Matrices.loadA(bits, offset, stride, element, layout);
  }

  /**
   * Loads the B tile (the right factor); see {@link #loadMatrixA}.
   *
   * @param bits the 16-bit values' bits, a buffer
   * @param offset the index of element (0, 0)
   * @param stride the distance between rows (row-major) or columns (column-major)
   * @param element how the bits are read, a constant
   * @param layout a constant
   * @return the tile
   */
  public static MatrixB loadMatrixB(
      short[] bits, int offset, int stride, MatrixElement element, MatrixLayout layout) {
    return Matrices.loadB(bits, offset, stride, element, layout);
  }

  /**
   * Loads an accumulator tile of floats from a buffer or workgroup array; see {@link #loadMatrixA}.
   *
   * @param values a buffer or workgroup array
   * @param offset the index of element (0, 0)
   * @param stride the distance between rows (row-major) or columns (column-major)
   * @param layout a constant
   * @return the tile
   */
  public static MatrixAccumulator loadAccumulator(
      float[] values, int offset, int stride, MatrixLayout layout) {
    return Matrices.loadAccumulator(values, offset, stride, layout);
  }

  /**
   * An accumulator tile with every element {@code value}.
   *
   * @param value the elements' value
   * @return the tile
   */
  public static MatrixAccumulator fillAccumulator(float value) {
    return Matrices.filled(value);
  }

  /**
   * {@code a * b + c} on the matrix units. The device adds the 16 products of each element in its
   * own order and precision; the CPU backend in k order, rounding each sum to a float.
   *
   * @param a the left factor
   * @param b the right factor, of the same element type as {@code a}
   * @param c the accumulator
   * @return the sum
   */
  public static MatrixAccumulator multiplyAdd(MatrixA a, MatrixB b, MatrixAccumulator c) {
    return Matrices.multiplyAdd(a, b, c);
  }

  /**
   * Each element of {@code c} times {@code factor}.
   *
   * @param c the tile
   * @param factor the same in all invocations of the subgroup
   * @return the scaled tile
   */
  public static MatrixAccumulator scaleAccumulator(MatrixAccumulator c, float factor) {
    return Matrices.scale(c, factor);
  }

  /**
   * The elementwise sum of two accumulator tiles.
   *
   * @param x a tile
   * @param y a tile
   * @return the sum
   */
  public static MatrixAccumulator addAccumulators(MatrixAccumulator x, MatrixAccumulator y) {
    return Matrices.add(x, y);
  }

  /**
   * Stores an accumulator tile into a buffer or workgroup array; see {@link #loadMatrixA} for where
   * its elements go.
   *
   * @param c the tile
   * @param values a buffer or workgroup array
   * @param offset the index of element (0, 0)
   * @param stride the distance between rows (row-major) or columns (column-major)
   * @param layout a constant
   */
  public static void storeAccumulator(
      MatrixAccumulator c, float[] values, int offset, int stride, MatrixLayout layout) {
    // every lane computes the whole tile, the same in each; none may store before all have loaded
    // what the store may overwrite, as on a GPU, where the subgroup stores the tile once
    Invocation.current().subgroupVote(SubgroupLanes.ALL, true);
    Matrices.store(c, values, offset, stride, layout);
  }
}
