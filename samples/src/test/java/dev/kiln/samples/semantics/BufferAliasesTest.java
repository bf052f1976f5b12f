package dev.kiln.samples.semantics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.Device;
import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Local array variables that name buffers give Java's bits on Vulkan and the CPU backend, and a
 * fault through one names the buffer it named, with that buffer's length.
 */
class BufferAliasesTest extends BothDevices {
  @ParameterizedTest(name = "{0} rows x {1} columns")
  @CsvSource({"1, 1", "33, 7", "100, 65"})
  void aRowPointerReadsTheInputThenWritesTheOutput(int rows, int cols) {
    compare("centerRows", rows * 1000 + cols,
        r -> new Object[] {Bits.randomFloats(r, rows * cols, 8f), new float[rows * cols]},
        (d, a) -> BufferAliasKernelsKernels.centerRows(d, rows, (float[]) a[0], (float[]) a[1], rows, cols));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 300})
  void aVariableChosenPerInvocationNamesEitherBuffer(int n) {
    compare("chosen", n,
        r -> new Object[] {Bits.randomFloats(r, n + 3, 4f), Bits.randomFloats(r, n / 2 + 1, 4f), new float[n]},
        (d, a) -> BufferAliasKernelsKernels.chosen(d, n, (float[]) a[0], (float[]) a[1], (float[]) a[2]));
  }

  /** Fusion sees the buffers' accesses the variable stands for: the group equals its arms. */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 65, 300})
  void aFusedGroupWithAVariableThatNamesBuffers(int n) {
    compare("chosenThenDoubled", n,
        r -> new Object[] {Bits.randomFloats(r, n + 3, 4f), Bits.randomFloats(r, n / 2 + 1, 4f), new float[n]},
        (d, a) -> BufferAliasKernelsKernels.chosenThenDoubled(d, n, (float[]) a[0], (float[]) a[1], (float[]) a[2]));
  }

  @ParameterizedTest(name = "n = {0}, {1} steps")
  @CsvSource({"1, 0", "65, 1", "130, 4", "77, 7"})
  void swappedBuffersAlternate(int n, int steps) {
    compare("pingPong", n * 10 + steps,
        r -> new Object[] {Bits.randomFloats(r, n, 4f), Bits.randomFloats(r, n, 4f)},
        (d, a) -> BufferAliasKernelsKernels.pingPong(d, n, (float[]) a[0], (float[]) a[1], steps));
  }

  @Test
  void aFaultNamesTheBufferTheVariableNamed() {
    for (Device device : new Device[] {cpu, vulkan}) {
      float[] out = new float[1];
      BufferAliasKernelsKernels.pick(device, 1, new float[] {1f, 2f}, new float[] {3f, 4f, 5f}, out, 2, 1);
      assertEquals(5f, out[0], device.toString());
      ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
          () -> BufferAliasKernelsKernels.pick(device, 1, new float[] {1f, 2f}, new float[] {3f, 4f, 5f},
              new float[1], 2, 0));
      assertEquals("Index 2 out of bounds for length 2 of buffer 'a' in kernel"
          + " dev.kiln.samples.semantics.BufferAliasKernels#pick (line 91)", thrown.getMessage(), device.toString());
    }
  }
}
