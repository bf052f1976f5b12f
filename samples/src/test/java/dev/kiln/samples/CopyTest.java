package dev.kiln.samples;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code System.arraycopy} in kernels ({@link CopyKernels}) gives Java's results on Vulkan, through
 * the CPU backend and as the kernel methods themselves, bit for bit: in 16-byte quads where the
 * indices allow ({@code shift} 0) and element by element where they do not, between buffers,
 * workgroup and private arrays; and Java's fault, with Java's words, where a range leaves its array.
 */
class CopyTest extends BothDevices {
  @ParameterizedTest(name = "shift {0}, {1} workgroups")
  @CsvSource({"0, 1", "0, 7", "1, 3", "5, 2"})
  void shortsMoveThroughWorkgroupMemory(int shift, int workgroups) {
    int n = workgroups * 32 * 8;
    compare("shorts", shift * 100 + workgroups, random -> new Object[] {shorts(random, n + shift), new short[n + shift]},
        (device, args) -> CopyKernelsKernels.shortsThroughWorkgroup(device, workgroups * 32, (short[]) args[0],
            (short[]) args[1], shift));
  }

  @ParameterizedTest(name = "shift {0}")
  @ValueSource(ints = {0, 3, 8})
  void charsMoveThroughAPrivateArray(int shift) {
    int invocations = 150; // not a multiple of the workgroup
    compare("chars", shift, random -> new Object[] {chars(random, invocations * 16 + shift),
        new char[invocations * 16 + shift], new int[invocations]},
        (device, args) -> CopyKernelsKernels.charsThroughPrivate(device, invocations, (char[]) args[0],
            (char[]) args[1], (int[]) args[2], shift));
  }

  @ParameterizedTest(name = "shift {0}")
  @ValueSource(ints = {0, 5})
  void shortsStoredIntoAPrivateQuadArrayKeepTheirNeighbours(int shift) {
    int invocations = 99;
    compare("shorts stored", shift, random -> new Object[] {shorts(random, invocations * 8 + shift),
        new short[invocations * 16 + shift]}, (device, args) -> CopyKernelsKernels.shortsStoredIntoPrivate(device,
            invocations, (short[]) args[0], (short[]) args[1], shift));
  }

  @ParameterizedTest(name = "shift {0}")
  @ValueSource(ints = {0, 1})
  void floatsMoveInQuadsAndInPieces(int shift) {
    int invocations = 77;
    compare("floats", shift, random -> new Object[] {floats(random, invocations * 8 + 1), new float[invocations * 8 + 1]},
        (device, args) -> CopyKernelsKernels.floats(device, invocations, (float[]) args[0], (float[]) args[1], shift));
  }

  @ParameterizedTest(name = "shift {0}")
  @ValueSource(ints = {0, 1})
  void longsDoublesBytesAndIntsMove(int shift) {
    int invocations = 48;
    compare("mixed", shift, random -> new Object[] {longs(random, invocations * 2 + 1), new long[invocations * 2],
        doubles(random, invocations * 4), new double[invocations * 4 + 1], bytes(random, invocations * 32 + 1),
        new byte[invocations * 32], ints(random, invocations * 4 + 1), new int[invocations * 4]},
        (device, args) -> CopyKernelsKernels.mixed(device, invocations, (long[]) args[0], (long[]) args[1],
            (double[]) args[2], (double[]) args[3], (byte[]) args[4], (byte[]) args[5], (int[]) args[6],
            (int[]) args[7], shift));
  }

  @Test
  void floatsMoveThroughWorkgroupQuadsStoredElementByElement() {
    int invocations = 64 * 5;
    compare("transposed", 7, random -> new Object[] {floats(random, invocations * 4), new float[invocations * 4],
        new float[invocations]}, (device, args) -> CopyKernelsKernels.transposedFloats(device, invocations,
            (float[]) args[0], (float[]) args[1], (float[]) args[2]));
  }

  @ParameterizedTest(name = "from {0} to {1}")
  @CsvSource({"0, 2", "2, 0", "4, 4", "0, 4", "3, 1"})
  void overlappingRangesCopyAsThroughATemporary(int from, int to) {
    int invocations = 70;
    compare("overlapping", from * 10 + to, random -> new Object[] {ints(random, invocations * 12),
        new int[invocations * 12]}, (device, args) -> CopyKernelsKernels.overlapping(device, invocations,
            (int[]) args[0], (int[]) args[1], from, to));
  }

  @ParameterizedTest(name = "from {0} to {1}")
  @CsvSource({"-1, 0", "0, -3", "-1, -3", "9, -3", "9, 0", "0, 13", "9, 13", "2147483647, 0"})
  void aRangeOutsideItsArrayFaultsAsJavaDoes(int from, int to) {
    short[] in = new short[16];
    short[] out = new short[20];
    IndexOutOfBoundsException java = assertThrows(IndexOutOfBoundsException.class,
        () -> System.arraycopy(in, from, out, to, 8));
    for (var device : new dev.kiln.Device[] {vulkan, cpu, cpuMethods}) {
      ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> CopyKernelsKernels.anywhere(device, 64, in, out, from, to));
      assertEquals(java.getMessage(), thrown.getMessage().substring(0, java.getMessage().length()),
          device + ": " + thrown.getMessage());
    }
    // Java's order: either index below 0 (the source's first), then either range past its end
    String array = from < 0 || to >= 0 && from > 8 ? "(buffer 'in')" : "(buffer 'out')";
    for (var device : new dev.kiln.Device[] {vulkan, cpu}) { // the CPU twin names the array and line as Vulkan does
      ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> CopyKernelsKernels.anywhere(device, 64, in, out, from, to));
      assertEquals(java.getMessage() + " " + array + " in kernel dev.kiln.samples.CopyKernels#anywhere (line 106)",
          thrown.getMessage(), device.toString());
    }
  }

  @Test
  void aCopyFaultInABatchNamesTheRangeAndLine() {
    try (var in = vulkan.upload(new short[16]); var out = vulkan.upload(new short[20]);
        dev.kiln.Batch batch = vulkan.batch()) {
      CopyKernelsKernels.anywhere(batch, 64, in, out, 9, 0);
      ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class, batch::submit);
      assertEquals("arraycopy: last source index 17 out of bounds in kernel dev.kiln.samples.CopyKernels#anywhere"
          + " (launch 1 of 1 in a batch) (line 106)", thrown.getMessage());
    }
  }

  @Test
  void rangesInsideTheirArraysCopyExactly() {
    short[] in = shorts(new Random(3), 16);
    short[] out = new short[20];
    CopyKernelsKernels.anywhere(vulkan, 64, in, out, 8, 12);
    short[] expected = new short[20];
    System.arraycopy(in, 8, expected, 12, 8);
    Bits.assertSameBits("anywhere", expected, out);
  }

  private static short[] shorts(Random random, int n) {
    short[] values = new short[n];
    for (int i = 0; i < n; i++) {
      values[i] = (short) random.nextInt();
    }
    return values;
  }

  private static char[] chars(Random random, int n) {
    char[] values = new char[n];
    for (int i = 0; i < n; i++) {
      values[i] = (char) random.nextInt();
    }
    return values;
  }

  private static float[] floats(Random random, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = Float.intBitsToFloat(random.nextInt()); // NaNs' payloads too: a copy moves bits
    }
    return values;
  }

  private static long[] longs(Random random, int n) {
    long[] values = new long[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextLong();
    }
    return values;
  }

  private static double[] doubles(Random random, int n) {
    double[] values = new double[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextDouble() * 1e6 - 5e5;
    }
    return values;
  }

  private static byte[] bytes(Random random, int n) {
    byte[] values = new byte[n];
    random.nextBytes(values);
    return values;
  }

  private static int[] ints(Random random, int n) {
    int[] values = new int[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextInt();
    }
    return values;
  }
}
