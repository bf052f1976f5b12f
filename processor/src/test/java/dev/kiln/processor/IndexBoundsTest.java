package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import org.junit.jupiter.api.Test;

/**
 * A workgroup or private array indexed by local ids that the workgroup's shape keeps in range, or
 * by a value masked below its length, is written without bounds checks; one index past the end is
 * still checked.
 */
class IndexBoundsTest {
  @Test
  void localIdsWithinTheArrayAreNotChecked() {
    Compilation compilation = Kernels.compile(JavaFileObjects.forSourceLines("test.Tiles",
        "package test;",
        "import dev.kiln.Gpu;",
        "import dev.kiln.annotations.Kernel;",
        "final class Tiles {",
        "  @Kernel(workgroup = {16, 4})",
        "  static void inRange(int[] out) {",
        "    int[] tile = Gpu.sharedInts(64);",
        "    int x = Gpu.localId(0);",
        "    tile[Gpu.localId(1) * 16 + x] = x;",
        "    Gpu.barrier();",
        "    int own = tile[63 - x - 16 * Gpu.localId(1)];",
        "    Gpu.atomicAdd(tile, out[1] & 63, 1);",
        "    out[0] = own;",
        "  }",
        "  @Kernel(workgroup = {16, 4})",
        "  static void onePast(int[] out) {",
        "    int[] tile = Gpu.sharedInts(64);",
        "    tile[Gpu.localId(1) * 16 + Gpu.localId(0) + 1] = 1;",
        "    out[0] = 0;",
        "  }",
        "}"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(tileChecks(compilation, "inRange")).isEqualTo(0);
    assertThat(tileChecks(compilation, "onePast")).isEqualTo(1);
  }

  /** The bounds checks against the tile's length, 64: an unsigned comparison with that constant. */
  private static long tileChecks(Compilation compilation, String kernel) {
    String text = SpirvTools.disassemble(Kernels.module(compilation, "test", "Tiles", kernel));
    return text.lines().filter(line -> line.contains("OpULessThan") && line.contains("%uint_64")).count();
  }
}
