package dev.kiln.processor.check;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.Kernels;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Barriers inside and around helpers inlined into expressions: a helper's {@code return} leaves the
 * helper only, so a uniform loop with a barrier stays uniform; and what an inlined helper does
 * inside an expression counts where it runs, so a barrier there, or a value it computes, is judged
 * as the same code written as statements would be.
 */
class BarrierUniformityTest {
  private static List<Long> divergentLines(String... body) {
    String[] lines = new String[body.length + 4];
    lines[0] = "package test;";
    lines[1] = "import dev.kiln.Gpu;";
    lines[2] = "import dev.kiln.annotations.Kernel;";
    lines[3] = "final class K {";
    System.arraycopy(body, 0, lines, 4, body.length);
    lines[lines.length - 1] = body[body.length - 1];
    Compilation compilation = Kernels.compile(JavaFileObjects.forSourceLines("test.K", lines));
    return compilation.errors().stream()
        .peek(
            error ->
                assertWithMessage("only divergence errors")
                    .that(error.getMessage(Locale.ROOT))
                    .startsWith("[kiln.barrier.divergent]"))
        .map(javax.tools.Diagnostic::getLineNumber)
        .toList();
  }

  private static final String MIN =
      "  static int min(int a, int b) { if (a < b) { return a; } return b; }";
  private static final String SYNC =
      "  static int sync(int[] s, int l) { Gpu.barrier(); return s[l]; }";

  @Test
  void aHelpersReturnInAVaryingIfLeavesOnlyTheHelper() {
    assertThat(
            divergentLines(
                MIN,
                "  @Kernel(workgroup = 64)",
                "  static void k(int[] out, int n) {",
                "    int[] s = Gpu.sharedInts(64);",
                "    int lid = Gpu.localId(0);",
                "    for (int step = 0; step < n; step++) {",
                "      Gpu.barrier();",
                "      if (lid < 10) { int v = min(lid, 5); s[lid] = v; }",
                "      if (lid < 20) { s[lid] = 1 + min(lid, 7); }",
                "    }",
                "    out[Gpu.globalId(0)] = s[lid];",
                "  }",
                "}"))
        .isEmpty();
  }

  @Test
  void aBarrierInAHelperOnTheVaryingSideOfAConditionalIsDivergent() {
    assertThat(
            divergentLines(
                SYNC,
                "  @Kernel(workgroup = 64)",
                "  static void k(int[] out) {",
                "    int[] s = Gpu.sharedInts(64);",
                "    int lid = Gpu.localId(0);",
                "    s[lid] = lid;",
                "    out[Gpu.globalId(0)] = lid < 32 ? sync(s, lid) : 0;",
                "  }",
                "}"))
        .containsExactly(5L); // the barrier's line, in the helper
  }

  @Test
  void aValueAnInlinedHelperLoadsVaries() {
    assertThat(
            divergentLines(
                MIN,
                "  @Kernel(workgroup = 64)",
                "  static void k(int[] in, int[] out) {",
                "    int[] s = Gpu.sharedInts(64);",
                "    int lid = Gpu.localId(0);",
                "    int v = 1 + min(in[0], in[Gpu.globalId(0)]);",
                "    if (v > 0) {",
                "      Gpu.barrier();",
                "    }",
                "    out[Gpu.globalId(0)] = s[lid];",
                "  }",
                "}"))
        .containsExactly(12L);
  }

  /**
   * A buffer the kernel never writes holds still while it runs: its element at a uniform index is
   * one value for the workgroup, so a {@code return} or loop it decides before a barrier is
   * uniform. A written buffer's element, or one at the invocation's own index, is not.
   */
  @Test
  void aReadOnlyBuffersElementAtAUniformIndexIsUniform() {
    assertThat(
            divergentLines(
                "  @Kernel(workgroup = 64)",
                "  static void k(int[] limits, float[] out) {",
                "    float[] s = Gpu.sharedFloats(64);",
                "    int lid = Gpu.localId(0);",
                "    if (Gpu.workgroupId(0) * 64 > limits[1]) {",
                "      return;",
                "    }",
                "    for (int t = 0; t < limits[0]; t++) {",
                "      s[lid] = t;",
                "      Gpu.barrier();",
                "      out[Gpu.globalId(0)] += s[63 - lid];",
                "      Gpu.barrier();",
                "    }",
                "  }",
                "}"))
        .isEmpty();
    assertThat(
            divergentLines(
                "  @Kernel(workgroup = 64)",
                "  static void k(int[] limits, int[] counts) {",
                "    int lid = Gpu.localId(0);",
                "    if (limits[0] > 3) {",
                "      Gpu.barrier();",
                "    }",
                "    if (limits[lid] > 3) {",
                "      Gpu.barrier();",
                "    }",
                "    if (counts[0] > 3) {",
                "      Gpu.barrier();",
                "    }",
                "    counts[lid] = 1;",
                "  }",
                "}"))
        .containsExactly(12L, 15L); // the barriers under limits[lid] and counts[0]
  }
}
