package dev.kiln.processor.analysis;

import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.Kernels;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What tells a copy's index a multiple of a 16-byte quad at compile time, through the module it
 * leaves: a copy of 8 shorts from a buffer into a private array moves one quad where its index is
 * known a multiple of 8, and otherwise also has the element-by-element way its alignment test takes
 * at run time, which packs each short into the array's quad ({@code OpBitFieldInsert}). Each row is
 * an index, and whether the analysis must prove it.
 */
class MultiplesTest {
  /** {@code OpBitFieldInsert}'s opcode. */
  private static final int BIT_FIELD_INSERT = 201;

  @ParameterizedTest(name = "x[{0}]")
  @CsvSource(
      delimiter = '|',
      value = {
        "o | true",
        "(n - 8) & -8 | true",
        "(n - QUAD) & -QUAD | true", // a negated constant
        "Math.min(o, (n - 8) & -8) | true",
        "Math.max(o, 16) | true",
        "o + 8 <= n ? o : (n - QUAD) & -QUAD | true",
        "Math.min(o / 8, n / 8 - 1) * 8 | true",
        "Math.min(o, n - 8) | false",
        "-n | false",
        "o + 4 | false"
      })
  void provesACopysIndexAMultipleOfAQuad(String index, boolean proven) {
    Compilation compilation =
        Kernels.compile(
            JavaFileObjects.forSourceLines(
                "test.Quads",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Access;",
                "import dev.kiln.annotations.Buffer;",
                "import dev.kiln.annotations.Kernel;",
                "final class Quads {",
                "  private static final int QUAD = 8;",
                "  @Kernel(workgroup = 64, boundsChecks = false)",
                "  static void copy(@Buffer(Access.READ) short[] x, @Buffer(Access.WRITE) short[] y,"
                    + " int n) {",
                "    short[] next = new short[8];",
                "    int o = Gpu.globalId(0) * 8;",
                "    System.arraycopy(x, " + index + ", next, 0, 8);",
                "    System.arraycopy(next, 0, y, o, 8);",
                "  }",
                "}"));
    assertThat(compilation).succeeded();
    int packings = count(Kernels.module(compilation, "test", "Quads", "copy"), BIT_FIELD_INSERT);
    assertWithMessage("element packings of x[%s]", index).that(packings == 0).isEqualTo(proven);
  }

  /** The instructions of {@code module} with {@code opcode}. */
  private static int count(byte[] module, int opcode) {
    ByteBuffer words = ByteBuffer.wrap(module).order(ByteOrder.LITTLE_ENDIAN);
    int found = 0;
    for (int at = 5 * Integer.BYTES; at < module.length; ) {
      int word = words.getInt(at);
      if ((word & 0xffff) == opcode) {
        found++;
      }
      at += (word >>> 16) * Integer.BYTES;
    }
    return found;
  }
}
