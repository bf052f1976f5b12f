package dev.kiln.processor.analysis;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.Kernels;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The own-element proof through what it lets pass without a race warning, and the launch bounds it
 * leaves in the module: each row is one update {@code c[INDEX] += 1f} under a guard, with whether
 * it is proven and the conditions the launch must keep. A proof made unsound (the guard's fact
 * dropped, a wrap or axis bound forgotten) fails a row.
 */
class OwnElementTest {
  @ParameterizedTest(name = "{1}: c[{2}]")
  @CsvSource(
      delimiter = '|',
      value = {
        // workgroup | guard | index | proven | bounds
        "64 | i < n | i | true | grid height ≤ 1; grid depth ≤ 1",
        "64 | i < n | 2 * i + 3 | true | grid height ≤ 1; grid depth ≤ 1",
        "64 | i < n | 4 * i | true | 4 × grid width ≤ 4294967296; grid height ≤ 1; grid depth ≤ 1",
        "64 | i < n | i / 2 | false | ",
        "64 | i < n | n | false | ",
        "16, 16 | j < rows && i < cols | j * cols + i | true | 1 × cols × grid height ≤ 4294967296; grid depth ≤ 1",
        "16, 16 | j < rows && i < cols | (j + 1) * cols + i | true | 1 × cols × grid height ≤ 4294967296; grid depth ≤ 1",
        "16, 16 | j < rows && i < cols | i * rows + j | true | 1 × rows × grid width ≤ 4294967296; grid depth ≤ 1",
        "16, 16 | j < rows && i <= cols | j * cols + i | false | ",
        "16, 16 | j < rows | j * cols + i | false | ",
        "16, 16 | j < rows && i < cols | i | false | ",
        "16, 16 | j == 0 && i < cols | i | true | grid depth ≤ 1",
        "16, 16 | j < rows && i < cols - 1 | j * cols + i | true | 1 × cols × grid height ≤ 4294967296; (cols + 2147483647) ≥ 0; grid depth ≤ 1",
        // a side of ids that may wrap gives a fact to launch proofs alone: no bound on the ids here
        "16, 16 | j < rows && i < cols - 1 && 65536 * j + i < n | j * cols + i | true | 1 × cols × grid height ≤ 4294967296; (cols + 2147483647) ≥ 0; grid depth ≤ 1",
        "16, 16 | j < rows && i < cols - n | j * cols + i | true | 1 × cols × grid height ≤ 4294967296; n ≥ 0; (-n + cols + 2147483648) ≥ 0; (n - cols + 2147483647) ≥ 0; grid depth ≤ 1",
        "16, 16 | j < rows && i < n | j * cols + i | false | ",
        "16, 16 | j < rows && i < 100 | j * 100 + i | true | 1 × 100 × grid height ≤ 4294967296; grid depth ≤ 1",
        "16, 16, 4 | j < rows && i < cols | j * cols + i | false | ",
      })
  void updatesProvenOwnAndTheBoundsTheyLeave(
      String workgroup, String guard, String index, boolean proven, String bounds) {
    String source =
        """
        package test;
        import dev.kiln.Gpu;
        import dev.kiln.annotations.Kernel;
        final class K {
          @Kernel(workgroup = {%s})
          static void k(int n, int rows, int cols, float[] c) {
            int i = Gpu.globalId(0);
            int j = Gpu.globalId(1);
            if (%s) {
              c[%s] += 1f;
            }
          }
        }
        """
            .formatted(workgroup, guard, index);
    assertThat(boundsIfProven(source))
        .isEqualTo(proven ? (bounds == null ? "" : bounds) : "warned");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "k < features | true | 1 × points × features ≤ 4294967296; grid height ≤ 1; grid depth ≤ 1",
        "k < 8 | true | 1 × points × 8 ≤ 4294967296; grid height ≤ 1; grid depth ≤ 1",
        // k++ could wrap past features = Integer.MAX_VALUE: no range for k, no proof
        "k <= features | false | ",
        "k < points | true | 1 × points × points ≤ 4294967296; grid height ≤ 1; grid depth ≤ 1",
      })
  void stridedColumnsWalkedByALoopCounter(String loop, boolean proven, String bounds) {
    String source =
        """
        package test;
        import dev.kiln.Gpu;
        import dev.kiln.annotations.Kernel;
        final class K {
          @Kernel
          static void k(int points, int features, float[] f) {
            int p = Gpu.globalId(0);
            if (p < points) {
              for (int k = 0; %s; k++) {
                f[p + points * k] += 1f;
              }
            }
          }
        }
        """
            .formatted(loop);
    assertThat(boundsIfProven(source))
        .isEqualTo(proven ? (bounds == null ? "" : bounds) : "warned");
  }

  /**
   * CUDA's early return ({@code if (x >= n) return;}) guards what follows it as an {@code if}
   * around it would.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      value = {
        "if (i >= cols || j >= rows) { return; } => true",
        "if (i >= cols) { return; } => true",
        "if (i > cols) { return; } => false",
        "if (i >= cols) { c[0] = 1f; } => false",
      })
  void anEarlyReturnGuardsWhatFollows(String guard, boolean proven) {
    String source =
        """
        package test;
        import dev.kiln.Gpu;
        import dev.kiln.annotations.Kernel;
        final class K {
          @Kernel(workgroup = {16, 16})
          static void k(int rows, int cols, float[] c) {
            int i = Gpu.globalId(0);
            int j = Gpu.globalId(1);
            %s
            c[j * cols + i] += 1f;
          }
        }
        """
            .formatted(guard);
    assertThat(boundsIfProven(source).equals("warned")).isEqualTo(!proven);
  }

  /**
   * The mixed-radix proof: llm.c's softmax finds its row from the digits of the global id (h, tq,
   * bi below) and scales the row's {@code t} elements in a loop. An index whose digits do not cover
   * the id, whose strides are not each the one before times the range before, or whose counter's
   * range is not the same for all is warned.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // workgroup | index | proven | bounds
        "32 | row + j | true | (nh - 1) ≥ 0; 1 × grid width × t ≤ 2147483647; 1 × nh × t × t ≤ 2147483647; grid height ≤ 1; grid depth ≤ 1",
        "32 | row + j + 5 | true | (nh - 1) ≥ 0; 1 × grid width × t ≤ 2147483647; 1 × nh × t × t ≤ 2147483647; grid height ≤ 1; grid depth ≤ 1",
        "32 | 2 * (row + j) | true | (nh - 1) ≥ 0; 2 × grid width × t ≤ 2147483647; 2 × nh × t × t ≤ 2147483647; grid height ≤ 1; grid depth ≤ 1",
        "32 | bi * nh * t * t + tq * t * nh + h * t + j | true | (nh - 1) ≥ 0; 1 × grid width × t ≤ 2147483647; 1 × nh × t × t ≤ 2147483647; grid height ≤ 1; grid depth ≤ 1",
        "32 | q * 4 * t + r * t + j | true | 1 × grid width × t ≤ 2147483647; 1 × 4 × t ≤ 2147483647; grid height ≤ 1; grid depth ≤ 1",
        "32 | bi * nh * t * t + h * t * t + j | false | ",
        "32 | h * t * t + tq * t + j | false | ",
        "32 | h * t + j | false | ",
        "32 | tq * t + j | false | ",
        "32 | bi * t + j | false | ",
        "32 | bi * t * t + h * t * t + tq * t + j | false | ",
        "32 | row + 2 * j | false | ",
        "32 | row + j * t | false | ",
        "32 | row + h | false | ",
        "8, 4 | row + j | false | ",
      })
  void digitsOfTheGlobalId(String workgroup, String index, boolean proven, String bounds) {
    String source =
        """
        package test;
        import dev.kiln.Gpu;
        import dev.kiln.annotations.Kernel;
        final class K {
          @Kernel(workgroup = {%s})
          static void k(int b, int t, int nh, float[] c) {
            int idx = Gpu.globalId(0);
            if (idx < b * t * nh) {
              int h = idx %% nh;
              int tq = (idx / nh) %% t;
              int bi = idx / (nh * t);
              int r = idx %% 4;
              int q = idx / 4;
              int row = bi * nh * t * t + h * t * t + tq * t;
              for (int j = 0; j < t; j++) {
                c[%s] *= 2f;
              }
            }
          }
        }
        """
            .formatted(workgroup, index);
    assertThat(boundsIfProven(source))
        .isEqualTo(proven ? (bounds == null ? "" : bounds) : "warned");
  }

  /**
   * Compiles {@code source}'s kernel {@code test.K#k}: "warned" where it gets kiln.race.update,
   * else the conditions of its module's launch bounds, in order, joined by "; ".
   */
  private static String boundsIfProven(String source) {
    Compilation compilation = Kernels.compile(JavaFileObjects.forSourceString("test.K", source));
    assertThat(compilation).succeeded();
    if (compilation.warnings().stream()
        .anyMatch(w -> w.getMessage(null).contains("kiln.race.update"))) {
      return "warned";
    }
    dev.kiln.abi.KernelDescription kernel = Kernels.description(compilation, "test", "K", "k");
    java.util.regex.Matcher signature =
        java.util.regex.Pattern.compile("void k\\(([^)]*)\\)").matcher(source);
    assertThat(signature.find()).isTrue();
    List<String> names =
        java.util.Arrays.stream(signature.group(1).split(", "))
            .map(param -> param.substring(param.lastIndexOf(' ') + 1))
            .toList();
    return String.join(
        "; ", kernel.bounds().stream().map(bound -> bound.condition(names::get)).toList());
  }
}
