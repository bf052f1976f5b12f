package dev.kiln.processor.pass;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.Kernels;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A counted loop whose counter indexes a private array is written out turn by turn in the program
 * the SPIR-V writer gets, each index a constant; a loop that leaves early, assigns its counter, has
 * a bound the compiler does not know, runs too many turns, has a counter that wraps around (Java's
 * loop then never ends) or indexes no private array stays a loop. (That the unrolled modules
 * compute what Java does, the corpus runs: samples' {@code CorpusTest} and the kernel fuzzer
 * compare the devices with the CPU twins, which run the program before this pass.)
 */
class RegisterUnrollingTest {
  private static final int LOOP_MERGE = 246;
  private static final int NO_CONTROL = 0;
  private static final int UNROLL = 1;

  @TempDir static Path dump;

  @BeforeAll
  static void compile() {
    Compilation compilation =
        Kernels.compile(
            List.of("-Akiln.dump=" + dump),
            kernels(
                "tiles",
                """
                for (int i = 0; i < 4; i++) {
                  for (int j = 1; j <= 6; j += 2) {
                    t[i * 2 + j / 2] = x[g + i + j];
                  }
                }
                y[g] = t[0] + t[7];
                """,
                "unknownBound",
                """
                for (int i = 0; i < x.length % 8; i++) {
                  t[i] = x[g];
                }
                y[g] = t[1];
                """,
                "leavesEarly",
                """
                for (int i = 0; i < 8; i++) {
                  if (x[i] < 0f) {
                    break;
                  }
                  t[i] = x[g];
                }
                y[g] = t[1];
                """,
                "continuesFromASwitch",
                """
                for (int i = 0; i < 8; i++) {
                  switch (g) {
                    case 3:
                      continue;
                    default:
                      t[i] = x[g];
                  }
                }
                y[g] = t[1];
                """,
                "assignsItsCounter",
                """
                for (int i = 0; i < 8; i++) {
                  t[i] = x[g];
                  i += g & 1;
                }
                y[g] = t[1];
                """,
                "manyTurns",
                """
                for (int i = 0; i < 65; i++) {
                  t[i & 7] += x[g];
                }
                y[g] = t[1];
                """,
                "inAHelpersExpression",
                """
                y[g] = g < 8 ? sumOfFour(x, g) : 0f;
                """,
                "wrapsAround",
                """
                for (int i = 2147483640; i <= 2147483647; i += 4) {
                  t[i & 7] = x[g];
                }
                y[g] = t[1];
                """,
                "noPrivateArray",
                """
                for (int i = 0; i < 8; i++) {
                  y[(g + i) % y.length] = x[g];
                }
                """,
                "stageDepth",
                """
                for (int kk = 0; kk < 8; kk++) {
                  for (int i = 0; i < 4; i++) {
                    t[i] += x[g + kk * 4 + i];
                  }
                }
                y[g] = t[0] + t[3];
                """,
                "stageDepthUnknownIndex",
                """
                for (int kk = 0; kk < 8; kk++) {
                  t[g & 7] += x[g + kk];
                }
                y[g] = t[0] + t[3];
                """));
    assertThat(compilation).succeededWithoutWarnings();
  }

  @Test
  void aNestOverAPrivateArrayIsWrittenOutWithConstantIndices() throws IOException {
    String tiles = program("tiles");
    assertThat(tiles).doesNotContain("while");
    // i = 3, j = 5: the last turn of both loops, the counters' values in place of their reads
    assertThat(tiles).contains("t$0[((3 * 2) + (5 / 2))] = x[((g + 3) + 5)]");
    assertThat(tiles).doesNotContain("t$0[((3 * 2) + (7 / 2))]");
    assertThat(tiles).contains("j = 7;");
    assertThat(tiles).contains("i = 4;");
  }

  @Test
  void aHelperInlinedIntoAnExpressionHasItsLoopsUnrolled() throws IOException {
    // the IR's text shows an expression's statements by their count alone: the module's loops
    assertThat(loops("inAHelpersExpression")).isEqualTo(0);
    assertThat(loops("tiles")).isEqualTo(0);
    assertThat(loops("unknownBound")).isEqualTo(1);
  }

  @Test
  void loopsThatDoNotQualifyStayLoops() throws IOException {
    for (String kernel :
        List.of(
            "unknownBound",
            "leavesEarly",
            "continuesFromASwitch",
            "assignsItsCounter",
            "manyTurns",
            "wrapsAround",
            "noPrivateArray")) {
      assertThat(program(kernel)).contains("while");
    }
  }

  /**
   * A counted loop whose counter indexes no private array, but whose body, its inner loops written
   * out, touches private arrays at constant indices alone (a register tile's loop over a stage's
   * depth) stays a loop marked for the driver to unroll ({@code OpLoopMerge}'s {@code Unroll}): its
   * turns written out took the float32 GEMM's modules past 1 MB. A loop that indexes one by a value
   * it computes, or touches none, is neither written out nor marked.
   */
  @Test
  void aLoopAroundConstantIndicesIsMarkedForTheDriver() throws IOException {
    assertThat(program("stageDepth")).contains("[unroll] while ((kk < 8))");
    assertThat(program("stageDepth")).contains("t$0[0] = (t$0[0] + x[((g + (kk * 4)) + 0)])");
    assertThat(loopControls("stageDepth")).containsExactly(UNROLL);
    assertThat(program("stageDepthUnknownIndex")).doesNotContain("[unroll]");
    assertThat(loopControls("stageDepthUnknownIndex")).containsExactly(NO_CONTROL);
    assertThat(loopControls("noPrivateArray")).containsExactly(NO_CONTROL);
  }

  /**
   * A class of one kernel per name, each with private array {@code t} and its body, and helper
   * {@code sumOfFour} (two loops over a private array of its own).
   */
  private static javax.tools.JavaFileObject kernels(String... namesAndBodies) {
    List<String> lines =
        new ArrayList<>(
            List.of(
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Unrolled {"));
    for (int k = 0; k < namesAndBodies.length; k += 2) {
      lines.add("  @Kernel(workgroup = 64)");
      lines.add("  static void " + namesAndBodies[k] + "(float[] x, float[] y) {");
      lines.add("    int g = Gpu.globalId(0) % 16;");
      lines.add("    float[] t = new float[8];");
      lines.add(namesAndBodies[k + 1]);
      lines.add("  }");
    }
    lines.addAll(
        List.of(
            "  static float sumOfFour(float[] x, int g) {",
            "    float[] four = new float[4];",
            "    for (int i = 0; i < 4; i++) {",
            "      four[i] = x[g + i];",
            "    }",
            "    float sum = 0f;",
            "    for (int i = 0; i < 4; i++) {",
            "      sum += four[i];",
            "    }",
            "    return sum;",
            "  }",
            "}"));
    return JavaFileObjects.forSourceLines("test.Unrolled", lines);
  }

  /**
   * The IR the processor dumped for {@code kernel}: the program the SPIR-V writer got, its locals
   * by name alone (their numbers come from one allocator for the whole test run).
   */
  private static String program(String kernel) throws IOException {
    return Files.readString(Kernels.dumped(dump, kernel, ".ir.txt")).replaceAll("#\\d+", "");
  }

  /**
   * The loops ({@code OpLoopMerge} instructions) of the module the processor wrote for {@code
   * kernel}.
   */
  private static int loops(String kernel) throws IOException {
    return loopControls(kernel).size();
  }

  /** The loop controls of the {@code OpLoopMerge} instructions in {@code kernel}'s module. */
  private static List<Integer> loopControls(String kernel) throws IOException {
    IntBuffer words =
        ByteBuffer.wrap(Files.readAllBytes(Kernels.dumped(dump, kernel, ".spv")))
            .order(ByteOrder.LITTLE_ENDIAN)
            .asIntBuffer();
    List<Integer> controls = new ArrayList<>();
    for (int at = 5; at < words.limit(); at += words.get(at) >>> 16) {
      if ((words.get(at) & 0xffff) == LOOP_MERGE) {
        controls.add(words.get(at + 3));
      }
    }
    return controls;
  }
}
