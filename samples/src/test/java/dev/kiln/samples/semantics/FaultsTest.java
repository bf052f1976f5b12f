package dev.kiln.samples.semantics;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import corpus.FaultsKernels;
import dev.kiln.FloatArray;
import dev.kiln.IntArray;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Faults that Java throws for, on Vulkan: the faulty access is dropped, the launcher throws the
 * exception Java would (naming kernel, buffer and index), and a canary buffer bound next to the
 * faulting one is untouched. The CPU backend throws Java's own exceptions.
 */
class FaultsTest extends BothDevices {
  private static final int N = 1000;

  @ParameterizedTest(name = "offset {0}")
  @ValueSource(ints = {1, 5, -1, 1 << 20})
  void outOfBoundsWriteThrowsAndLeavesTheCanary(int offset) {
    float[] canaryValues = new float[N];
    Arrays.fill(canaryValues, 7f);
    try (FloatArray out = vulkan.floats(N); FloatArray canary = vulkan.upload(canaryValues)) {
      ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> FaultsKernels.writeShifted(vulkan, N, out, canary, offset));
      String message = thrown.getMessage();
      assertTrue(message.contains("Faults#writeShifted"), message);
      assertTrue(message.contains("buffer 'out'"), message);
      assertTrue(message.contains("for length " + N), message);
      int index = Integer.parseInt(message.replaceAll("^Index (-?\\d+) .*", "$1"));
      assertTrue(index < 0 || index >= N, message);
      Bits.assertSameBits("canary", canaryValues, canary.toArray());
      float[] expected = new float[N];
      for (int i = Math.max(0, offset); i < Math.min(N, N + offset); i++) {
        expected[i] = 1f;
      }
      Bits.assertSameBits("in-bounds writes", expected, out.toArray());
    }
  }

  /**
   * The kernel methods themselves ({@code -Dkiln.cpu=java}) throw Java's exceptions; one thrown often
   * enough becomes the JIT's preallocated one, without message or stack, which came out as
   * {@code ArrayIndexOutOfBoundsException: null}. It now names the kernel and how to get the details.
   */
  @Test
  void aFaultRepeatedOnTheKernelMethodsStillSaysWhere() {
    float[] out = new float[N];
    float[] canary = new float[N];
    for (int launch = 0; launch < 3000; launch++) {
      ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> FaultsKernels.writeShifted(cpuMethods, N, out, canary, 1));
      String message = thrown.getMessage();
      assertTrue(message != null && (message.equals("Index 1000 out of bounds for length 1000")
          || message.equals("in kernel corpus.Faults#writeShifted: the JVM threw this fault often enough to drop its"
              + " details (index, line); run with -XX:-OmitStackTraceInFastThrow to keep them, or without"
              + " -Dkiln.cpu=java (the CPU twins name them always)")), "launch " + launch + ": " + message);
    }
  }

  @Test
  void outOfBoundsReadThrowsAndTheDeviceStaysUsable() {
    float[] in = new float[N];
    float[] out = new float[N];
    ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> FaultsKernels.readShifted(vulkan, N, in, out, 3));
    assertTrue(thrown.getMessage().contains("buffer 'in'"), thrown.getMessage());
    FaultsKernels.readShifted(vulkan, N - 3, in, out, 3);
    assertEquals(1f, out[N - 4]);
  }

  @Test
  void privateArrayIndexOutOfBoundsThrows() {
    int[] out = new int[10];
    ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> corpus.PrivateArraysKernels.outOfBounds(vulkan, 10, out, 4));
    assertTrue(thrown.getMessage().startsWith("Index 4 out of bounds for length 4 of a local array"), thrown.getMessage());
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> corpus.PrivateArraysKernels.outOfBounds(cpu, 10, out, 4));
    corpus.PrivateArraysKernels.outOfBounds(vulkan, 10, out, 3);
    Bits.assertSameBits("in bounds", new int[10], out);
  }

  @Test
  void divisionByZeroThrowsArithmeticException() {
    int[] a = {7, 8, 9};
    int[] b = {1, 0, 3};
    ArithmeticException thrown = assertThrows(ArithmeticException.class,
        () -> FaultsKernels.divide(vulkan, 3, a, b, new int[3], new int[3]));
    assertTrue(thrown.getMessage().equals("/ by zero in kernel corpus.Faults#divide (line 23)"), thrown.getMessage());
    ArithmeticException onCpu = assertThrows(ArithmeticException.class,
        () -> FaultsKernels.divide(cpu, 3, a, b, new int[3], new int[3]));
    StackTraceElement top = onCpu.getStackTrace()[0];
    assertEquals("Faults.java:23", top.getFileName() + ":" + top.getLineNumber(), onCpu.toString());
  }

  /** Math's *Exact methods give Java's results, and throw Java's ArithmeticException where they overflow. */
  @Test
  void exactMethodsMatchJavaAndThrowOnOverflow() {
    java.util.Random random = new java.util.Random(11);
    int n = 999;
    int[][] ints = new int[2][];
    long[][] longs = new long[2][];
    int[] a = new int[n];
    int[] b = new int[n];
    long[] c = new long[n];
    long[] d = new long[n];
    for (int k = 0; k < n; k++) { // halves of the range: no overflow
      a[k] = random.nextInt() >> 17;
      b[k] = random.nextInt() >> 17;
      c[k] = random.nextLong() >> 2;
      d[k] = random.nextLong() >> 2;
    }
    dev.kiln.Device[] devices = {cpu, vulkan};
    for (int k = 0; k < 2; k++) {
      ints[k] = new int[6 * n];
      longs[k] = new long[5 * n];
      FaultsKernels.exact(devices[k], n, a, b, c, d, ints[k], longs[k]);
    }
    Bits.assertSameBits("int results", ints[0], ints[1]);
    Bits.assertSameBits("long results", longs[0], longs[1]);
    int[] overflowing = a.clone();
    int[] two = b.clone();
    overflowing[n / 2] = Integer.MAX_VALUE;
    two[n / 2] = 2; // MAX_VALUE + 2 overflows
    assertThrows(ArithmeticException.class, // (on the CPU the JVM may leave a hot site's message out)
        () -> FaultsKernels.exact(cpu, n, overflowing, two, c, d, new int[6 * n], new long[5 * n]));
    ArithmeticException onVulkan = assertThrows(ArithmeticException.class,
        () -> FaultsKernels.exact(vulkan, n, overflowing, two, c, d, new int[6 * n], new long[5 * n]));
    assertTrue(onVulkan.getMessage().startsWith("integer overflow in kernel"), onVulkan.getMessage());
    long[] overflowingLongs = c.clone();
    overflowingLongs[7] = Long.MIN_VALUE;
    ArithmeticException thrown = assertThrows(ArithmeticException.class,
        () -> FaultsKernels.exact(vulkan, n, a, b, overflowingLongs, d, new int[6 * n], new long[5 * n]));
    assertTrue(thrown.getMessage().startsWith("long overflow"), thrown.getMessage());
  }

  /** A helper's argument that its body never reads is still evaluated: its fault is Java's. */
  @Test
  void helperArgumentsAreEvaluated() {
    float[] x = new float[N];
    // (the JVM may throw a hot site's exception without its message: only Vulkan's message is checked)
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> FaultsKernels.unusedArgument(cpu, N, x, new float[N], 1000));
    ArrayIndexOutOfBoundsException onVulkan = assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> FaultsKernels.unusedArgument(vulkan, N, x, new float[N], 1000));
    String message = onVulkan.getMessage(); // whichever invocation faulted first
    assertTrue(message.matches("Index (1\\d\\d\\d) out of bounds for length " + N + ".*"), message);
    FaultsKernels.unusedArgument(vulkan, N - 1, x, new float[N], 1);
  }

  /** ... whose top frame is the twin's, at the kernel's file and line (it read "generated by Kiln"). */
  @Test
  void theCpuBackendThrowsJavasOwnExceptions() {
    ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> FaultsKernels.writeShifted(cpu, N, new float[N], new float[N], 1));
    StackTraceElement top = thrown.getStackTrace()[0];
    assertEquals("corpus.Faults$KilnCpu", top.getClassName(), java.util.Arrays.toString(thrown.getStackTrace()));
    assertEquals("Faults.java:11", top.getFileName() + ":" + top.getLineNumber());
  }

  @Test
  void uncheckedKernelRunsInBounds() {
    try (FloatArray in = vulkan.upload(new float[] {1f, 2f, 3f}); FloatArray out = vulkan.floats(3)) {
      FaultsKernels.unchecked(vulkan, 3, in, out);
      Bits.assertSameBits("unchecked", new float[] {2f, 4f, 6f}, out.toArray());
    }
  }

  @Test
  void faultFreeIntegerDivisionMatchesJava() {
    try (IntArray a = vulkan.upload(new int[] {7, -7, Integer.MIN_VALUE, 5});
        IntArray b = vulkan.upload(new int[] {2, 2, -1, -3});
        IntArray q = vulkan.ints(4);
        IntArray r = vulkan.ints(4)) {
      FaultsKernels.divide(vulkan, 4, a, b, q, r);
      Bits.assertSameBits("quotients", new int[] {3, -3, Integer.MIN_VALUE, -1}, q.toArray());
      Bits.assertSameBits("remainders", new int[] {1, -1, 0, 2}, r.toArray());
    }
  }
}
