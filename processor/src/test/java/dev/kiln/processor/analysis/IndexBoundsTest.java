package dev.kiln.processor.analysis;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.abi.LaunchProof;
import dev.kiln.abi.LaunchValues;
import dev.kiln.processor.DescriptionText;
import dev.kiln.processor.Kernels;
import dev.kiln.processor.SpirvTools;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A workgroup or private array indexed by local ids that the workgroup's shape keeps in range, or
 * by a value masked below its length, is written without bounds checks; one index past the end is
 * still checked. Guards and loop counters prove indices too, buffer ones against the buffer's
 * length; an index a guard does not bound, or whose variable changes after the guard, keeps its
 * check.
 */
class IndexBoundsTest {
  @Test
  void localIdsWithinTheArrayAreNotChecked() {
    Compilation compilation =
        Kernels.compile(
            JavaFileObjects.forSourceLines(
                "test.Tiles",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                // out[0] = own, and the atomic beside the read: races the test does not look at
                "@SuppressWarnings({\"kiln.race.write\", \"kiln.race.barrier\"})",
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

  @Test
  void guardsAndLoopCountersProveIndices() {
    Compilation compilation =
        Kernels.compile(
            JavaFileObjects.forSourceLines(
                "test.Guards",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Guards {",
                "  @Kernel(workgroup = 64)",
                "  static void tree(int[] out) {",
                "    int[] partial = Gpu.sharedInts(64);",
                "    int l = Gpu.localId(0);",
                "    partial[l] = l;",
                "    Gpu.barrier();",
                "    for (int stride = 32; stride > 0; stride >>= 1) {",
                "      if (l < stride) {",
                "        partial[l] += partial[l + stride];",
                "      }",
                "      Gpu.barrier();",
                "    }",
                "    if (l == 0 && 0 < out.length) {",
                "      out[0] = partial[0];",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void treeTooWide(int[] out) {",
                "    int[] partial = Gpu.sharedInts(64);",
                "    int l = Gpu.localId(0);",
                "    partial[l] = l;",
                "    Gpu.barrier();",
                "    for (int stride = 64; stride > 0; stride >>= 1) {",
                "      if (l < stride) {",
                "        partial[l] += partial[l + stride];",
                "      }",
                "      Gpu.barrier();",
                "    }",
                "    if (l == 0 && 0 < out.length) {",
                "      out[0] = partial[0];",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void scan(int[] values) {",
                "    int[] cells = Gpu.sharedInts(64);",
                "    int l = Gpu.localId(0);",
                "    int i = Gpu.globalId(0);",
                "    cells[l] = i < values.length ? values[i] : 0;",
                "    Gpu.barrier();",
                "    for (int offset = 1; offset < 64; offset <<= 1) {",
                "      int add = l >= offset ? cells[l - offset] : 0;",
                "      Gpu.barrier();",
                "      cells[l] += add;",
                "      Gpu.barrier();",
                "    }",
                "    if (i < values.length) {",
                "      values[i] = cells[l];",
                "    }",
                "  }",
                "  @Kernel", // along axis 1, so that it is not vectorized
                "  static void lengthGuard(int[] in, int[] out) {",
                "    int i = Gpu.globalId(1);",
                "    if (i < in.length && i < out.length) {",
                "      out[i] = in[i];",
                "    }",
                "  }",
                "  @Kernel",
                "  static void guardThatWraps(int[] in, int[] out) {",
                "    int i = Gpu.globalId(1);",
                "    if (i + 1 < in.length && i < out.length) {",
                "      out[i] = in[i + 1];",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  @SuppressWarnings(\"kiln.race.barrier\")", // tile[k + 1] and tile[k + 2]: a race
                // the test does not look at
                "  static void changedAfterTheGuard(int[] out) {",
                "    int[] tile = Gpu.sharedInts(64);",
                "    int k = Gpu.localId(0);",
                "    if (k < 63) {",
                "      k = k + 1;",
                "      tile[k] = 1;",
                "      k = k + 1;",
                "      tile[k] = 2;",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void staleFactAfterAssignment(int[] out) {",
                "    int[] tile = Gpu.sharedInts(64);",
                "    int v = out[0];",
                "    if (v >= 0 && v < 64) {",
                "      v = v + 10;",
                "      tile[v] = 1;",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void stepHeldInALocal(int[] out) {",
                "    int[] tile = Gpu.sharedInts(256);",
                "    int step = 64;",
                "    for (int s = Gpu.localId(0); s < 256; s += step) {",
                "      tile[s] = s;",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void belowAMinimum(int[] out, int n) {",
                "    int[] tile = Gpu.sharedInts(256);",
                "    int last = Math.min(n, 256);",
                "    for (int s = Gpu.localId(0); s < last; s += 64) {",
                "      tile[s] = s;",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void belowAMaximum(int[] out, int n) {",
                "    int[] tile = Gpu.sharedInts(256);",
                "    int last = Math.max(n, 256);",
                "    for (int s = Gpu.localId(0); s < last; s += 64) {",
                "      tile[s] = s;",
                "    }",
                "  }",
                "  static final int HALF = 32;",
                "  @Kernel(workgroup = 64)",
                "  static void stepOfConstants(int[] out) {",
                "    int[] tile = Gpu.sharedInts(256);",
                "    for (int s = Gpu.localId(0); s < 256; s += HALF * 2) {",
                "      tile[s] = s;",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void stepChangedInTheLoop(int[] out) {",
                "    int[] tile = Gpu.sharedInts(256);",
                "    int step = 64;",
                "    for (int s = Gpu.localId(0); s < 256; s += step) {",
                "      tile[s] = s;",
                "      step = out[0];",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void counterChangedInTheBody(int[] out) {",
                "    int[] tile = Gpu.sharedInts(64);",
                "    for (int s = 0; s < 64; s++) {",
                "      tile[s] = 1;",
                "      s += 1;",
                "    }",
                "  }",
                "}"));
    assertThat(compilation).succeededWithoutWarnings();
    Object[][] expected = {
      {"tree", 0},
      {"treeTooWide", 1},
      {"scan", 0},
      {"lengthGuard", 0},
      {"guardThatWraps", 1},
      {"changedAfterTheGuard", 1},
      {"staleFactAfterAssignment", 2},
      {"stepHeldInALocal", 0},
      {"stepOfConstants", 0},
      {"belowAMinimum", 0},
      {"belowAMaximum", 1},
      {"stepChangedInTheLoop", 2},
      {"counterChangedInTheBody", 1},
    };
    for (Object[] row : expected) {
      String text =
          SpirvTools.disassemble(Kernels.module(compilation, "test", "Guards", (String) row[0]));
      long checks =
          text.lines()
              .filter(line -> line.contains("OpLogicalNot"))
              .count(); // one per check's fault
      assertWithMessage("bounds checks of %s", row[0])
          .that(checks)
          .isEqualTo(((Integer) row[1]).longValue());
    }
  }

  /**
   * What the facts prove only given a launch's lengths, scalars and grid is handed to the runtime:
   * each such access gets a proof in the kernel's description and a check that the specialization
   * constant {@code checksSettled} turns off; an index without an affine form keeps a plain check.
   * A guard {@code l != 0} trims the range of {@code l}, so that {@code tile[l - 1]} is proven
   * outright.
   */
  @Test
  void launchesSettleWhatLengthsScalarsAndGridsProve() {
    Compilation compilation =
        Kernels.compile(
            JavaFileObjects.forSourceLines(
                "test.Settled",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Settled {",
                "  @Kernel(workgroup = {16, 16})",
                "  static void rows(float[] in, float[] out, int width, int height) {",
                "    int x = Gpu.globalId(0);",
                "    int y = Gpu.globalId(1);",
                "    if (x < width && y < height && y != height - 1) {",
                "      out[y * width + x] = in[y * width + x + width];",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void indirect(int[] in, int[] out) {",
                "    int i = Gpu.globalId(0);",
                "    out[i] = in[in[i] & 1023];",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void gathered(int[] in, int[] out, int[] index) {",
                "    int i = Gpu.globalId(0);",
                "    if (i < out.length) {",
                "      int j = index[i];",
                "      out[i] = in[j];",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void notFirst(int[] out) {",
                "    int[] tile = Gpu.sharedInts(64);",
                "    int l = Gpu.localId(0);",
                "    tile[l] = l;",
                "    Gpu.barrier();",
                "    if (l != 0) {",
                "      out[Gpu.globalId(0)] = tile[l - 1];",
                "    }",
                "  }",
                "}"));
    assertThat(compilation).succeededWithoutWarnings();
    Object[][] expected = { // kernel, checks, checks a launch may settle
      // in[j], j a loaded value, keeps a plain check: a proof about it could never hold and
      // would keep every launch of the module checked
      {"rows", 2, 2}, {"indirect", 3, 2}, {"gathered", 2, 1}, {"notFirst", 1, 1},
    };
    for (Object[] row : expected) {
      String text =
          SpirvTools.disassemble(Kernels.module(compilation, "test", "Settled", (String) row[0]));
      long checks =
          text.lines()
              .filter(line -> line.contains("OpLogicalNot"))
              .count(); // one per check's fault
      long settled =
          text.lines().filter(line -> line.contains("OpLogicalOr %bool %checksSettled")).count();
      long proofs =
          Kernels.description(compilation, "test", "Settled", (String) row[0]).proofs().size();
      assertWithMessage("bounds checks of %s", row[0])
          .that(checks)
          .isEqualTo(((Integer) row[1]).longValue());
      assertWithMessage("checks of %s a launch may settle", row[0])
          .that(settled)
          .isEqualTo(((Integer) row[2]).longValue());
      assertWithMessage("launch proofs of %s", row[0])
          .that(proofs)
          .isEqualTo(((Integer) row[2]).longValue());
    }
    // rows(in, out, width, height): in is parameter 0, width 2, height 3
    assertThat(DescriptionText.lines(Kernels.description(compilation, "test", "Settled", "rows")))
        .contains(
            "proof: 0+1*g0+1*g1*s:2+1*s:2 -1+-1*g0+-1*g1*s:2+1*n:0+-1*s:2 | -1+1*c0.0+-1*g0 -1+1*c0.1+-1*g1 -1+1*c0.2+-1*g2"
                + " -1+-1*g0+1*s:2 -1+-1*g1+1*s:3 | 1+1*g1+-1*s:3"
                + " | 2147483647+1*s:3 2147483648+-1*s:3 | in[(globalId(1))*(scalar width) + globalId(0) + scalar width]"
                + " at line 10");
  }

  /**
   * A tile's elements, {@code first = workgroupId · 512 + 8 · localId} on: {@code first} wraps
   * where the workgroups are many, so a guard {@code first <= n - 8} or {@code first + k < n} says
   * something of it only where the launch's ids keep it an int, which the proofs require. With
   * that, every check settles at a launch whose buffers hold {@code n}, and none where one is short
   * or where the workgroups make {@code first} wrap. The loop's counter bounds {@code k} where its
   * condition is read, and {@code k < 8} bounds it where {@code first + k < n} is.
   */
  @Test
  void factsOnIdsThatMayWrapHoldWhereTheLaunchsIdsKeepThemInts() {
    List<LaunchProof> proofs =
        launchProofs(
            "Tiles",
            "sums",
            "  static void sums(int[] in, int[] sums, int n) {",
            "    int first = Gpu.workgroupId(0) * 512 + Gpu.localId(0) * 8;",
            "    int sum = 0;",
            "    if (first <= n - 8) {",
            "      sum = in[first] + in[first + 7];",
            "    } else {",
            "      for (int k = 0; k < 8 && first + k < n; k++) {",
            "        sum += in[first + k];",
            "      }",
            "    }",
            "    sums[Gpu.globalId(0)] = sum;",
            "  }");
    assertThat(proofs).hasSize(4); // in[first], in[first + 7], in[first + k], sums[globalId(0)]
    int n = 1000;
    for (LaunchProof proof : proofs) {
      assertWithMessage(proof.access()).that(proof.holds(new OneAxis(n, n, 1000 / 8))).isTrue();
    }
    assertThat(allHold(proofs, new OneAxis(n, n - 1, 1000 / 8))).isFalse();
    // 2^23 workgroups: first passes 2^31
    assertThat(allHold(proofs, new OneAxis(Integer.MAX_VALUE, Integer.MAX_VALUE, 64 << 23)))
        .isFalse();
  }

  /**
   * A part of a long row, as the library's split rows read it: a counter from {@code span ·
   * workgroupId + localId}, which may wrap, below {@code last = min(cols, first + span)}. Its rise
   * holds where the launch keeps the first value an int and {@code cols + 63} too, and {@code last
   * <= cols} bounds it by a scalar: the read settles where {@code m} holds {@code cols}.
   */
  @Test
  void aCounterFromAProductOfIdsRisesWhereTheLaunchKeepsItAnInt() {
    List<LaunchProof> proofs =
        launchProofs(
            "Parts",
            "part",
            "  static void part(float[] m, float[] partials, int cols, int span) {",
            "    int first = Gpu.workgroupId(0) * span;",
            "    int last = Math.min(cols, first + span);",
            "    float sum = 0f;",
            "    for (int c = first + Gpu.localId(0); c < last; c += 64) {",
            "      sum += m[c];",
            "    }",
            "    partials[Gpu.globalId(0)] = sum;",
            "  }");
    // 10,000 columns in 5 parts of 2,000: 5 workgroups
    assertThat(allHold(proofs, new OneAxis(10_000, 10_000, 5 * 64, 2_000))).isTrue();
    assertThat(allHold(proofs, new OneAxis(10_000, 9_999, 320, 2_000))).isFalse();
    // parts of 2^30: the third part's first column wraps
    assertThat(allHold(proofs, new OneAxis(10_000, 10_000, 320, 1 << 30))).isFalse();
  }

  /**
   * A lane's chunks of a row, {@code c <= n - 8} with {@code c} from {@code 8 · localId}: {@code n
   * - 8} may wrap, so the condition bounds {@code c} only where the launch keeps it an int, and the
   * counter's rise with it (and with {@code n - 8 + 512} an int). The reads of whole chunks and of
   * the next chunk settle where {@code in} holds {@code n}, not where it is short or where {@code n
   * - 8} wraps.
   */
  @Test
  void aCounterBelowABoundThatMayWrapRisesWhereTheLaunchKeepsTheBoundAnInt() {
    List<LaunchProof> proofs =
        launchProofs(
            "Chunks",
            "sums",
            "  static void sums(int[] in, int[] sums, int n) {",
            "    int sum = 0;",
            "    for (int c = 8 * Gpu.localId(0); c <= n - 8; c += 512) {",
            "      sum += in[c] + in[c + 7];",
            "      if (c <= n - 8 - 512) {",
            "        sum += in[c + 512];",
            "      }",
            "    }",
            "    sums[Gpu.globalId(0)] = sum;",
            "  }");
    assertThat(proofs).hasSize(4);
    assertThat(allHold(proofs, new OneAxis(100_000, 100_000, 64))).isTrue();
    assertThat(allHold(proofs, new OneAxis(100_000, 99_999, 64))).isFalse();
    assertThat(allHold(proofs, new OneAxis(Integer.MIN_VALUE + 3, 100_000, 64))).isFalse();
  }

  /**
   * A copy a launch may settle records its faults only where the launch did not settle it: each
   * side's tests for a range below 0 and past the array are and'ed with {@code !checksSettled}, so
   * that the settled pipeline, where the driver folds them to false, keeps no fault's record.
   */
  @Test
  void aSettledCopyRecordsNoFault() {
    Compilation compilation =
        Kernels.compile(
            JavaFileObjects.forSourceLines(
                "test.Copied",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Copied {",
                "  @Kernel(workgroup = 64)",
                "  static void quads(int[] in, int[] out, int n) {",
                "    int[] chunk = new int[4];",
                "    int i = Gpu.globalId(0) * 4;",
                "    if (i <= n - 4 && Gpu.globalId(0) < out.length) {",
                "      System.arraycopy(in, i, chunk, 0, 4);",
                "      out[Gpu.globalId(0)] = chunk[0] + chunk[3];",
                "    }",
                "  }",
                "}"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(Kernels.description(compilation, "test", "Copied", "quads").proofs()).hasSize(2);
    String text = SpirvTools.disassemble(Kernels.module(compilation, "test", "Copied", "quads"));
    String unsettled =
        text.lines()
            .filter(line -> line.endsWith("= OpLogicalNot %bool %checksSettled"))
            .map(line -> line.trim().split(" ")[0])
            .findFirst()
            .orElseThrow();
    assertThat(
            text.lines()
                .filter(line -> line.contains("OpLogicalAnd %bool " + unsettled + " "))
                .count())
        .isEqualTo(2); // the source's range below 0, and past its end
  }

  /**
   * A grid-stride loop, {@code i += numWorkgroups(0) * 64}: the step is the launch's, so the
   * counter's rise from its global id holds where the launch keeps {@code n - 1} plus the
   * dispatched ids an int ({@code d0}, the workgroups, in the proof), and the reads settle where
   * {@code in} holds {@code n}.
   */
  @Test
  void aGridStrideCounterRisesWhereTheLaunchKeepsItsStepFromWrapping() {
    List<LaunchProof> proofs =
        launchProofs(
            "Strided",
            "sums",
            "  static void sums(int[] in, int[] sums, int n) {",
            "    int stride = Gpu.numWorkgroups(0) * 64;",
            "    int sum = 0;",
            "    for (int i = Gpu.globalId(0); i < n; i += stride) {",
            "      sum += in[i];",
            "    }",
            "    sums[Gpu.globalId(0)] = sum;",
            "  }");
    assertThat(allHold(proofs, new OneAxis(100_000, 100_000, 640))).isTrue();
    assertThat(allHold(proofs, new OneAxis(100_000, 99_999, 640))).isFalse();
    // n - 1 + 640 past 2^31 - 1: the step may wrap the counter
    assertThat(allHold(proofs, new OneAxis(Integer.MAX_VALUE - 10, Integer.MAX_VALUE, 640)))
        .isFalse();
  }

  /**
   * The launch proofs of kernel {@code kernel}, a one-dimensional workgroup of 64, of a class
   * {@code name} whose body is {@code lines}; it compiles without warnings.
   */
  private static List<LaunchProof> launchProofs(String name, String kernel, String... lines) {
    List<String> source = new java.util.ArrayList<>();
    source.addAll(
        List.of(
            "package test;",
            "import dev.kiln.Gpu;",
            "import dev.kiln.annotations.Kernel;",
            "final class " + name + " {",
            "  @Kernel(workgroup = 64)"));
    source.addAll(List.of(lines));
    source.add("}");
    Compilation compilation =
        Kernels.compile(JavaFileObjects.forSourceLines("test." + name, source));
    assertThat(compilation).succeededWithoutWarnings();
    return Kernels.description(compilation, "test", name, kernel).proofs();
  }

  /** Whether {@code launch} settles every proof: its module runs without those checks. */
  private static boolean allHold(List<LaunchProof> proofs, LaunchValues launch) {
    return proofs.stream().allMatch(proof -> proof.holds(launch));
  }

  /**
   * A launch of {@code ids} invocations in workgroups of 64, {@code in} and {@code sums} given, and
   * the scalars {@code n} and {@code span} (parameters 2 and 3).
   */
  private record OneAxis(long n, long in, long ids, long span) implements LaunchValues {
    OneAxis(long n, long in, long ids) {
      this(n, in, ids, UNKNOWN);
    }

    @Override
    public long scalar(int param) {
      return param == 2 ? n : param == 3 ? span : UNKNOWN;
    }

    @Override
    public long length(int param) {
      return param == 0 ? in : param == 1 ? ids : UNKNOWN;
    }

    @Override
    public long grid(int arm, int axis) {
      return arm > 0 ? UNKNOWN : axis == 0 ? ids : 1;
    }

    @Override
    public long roundedGrid(int arm, int axis) {
      return axis == 0 ? (ids + 63) / 64 * 64 : 1;
    }

    @Override
    public long dispatchedIds(int axis) {
      return roundedGrid(0, axis);
    }

    @Override
    public long workgroupSize(int axis) {
      return axis == 0 ? 64 : 1;
    }
  }

  /**
   * Indices into fixed arrays that divide, take remainders or shift are bounded as intervals: a
   * staging layout with padded rows is proven, and so is a remainder of a loop counter; one row too
   * many, a divisor that is no constant and a remainder of what may be negative keep their checks.
   */
  @Test
  void quotientsAndRemaindersProveIndices() {
    Compilation compilation =
        Kernels.compile(
            JavaFileObjects.forSourceLines(
                "test.Strides",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "@SuppressWarnings({\"kiln.race.write\", \"kiln.race.barrier\"})",
                "final class Strides {",
                "  @Kernel(workgroup = {16, 16})",
                "  static void padded(int[] out) {",
                "    int[] block = Gpu.sharedInts(128 * 40);",
                "    int self = Gpu.localId(1) * 16 + Gpu.localId(0);",
                "    for (int part = 0; part < 16; part++) {",
                "      int index = self + part * 256;",
                "      block[index / 32 * 40 + index % 32] = part;",
                "      block[(index >> 5) * 40 + (index & 31)] = part;",
                "    }",
                "    int[] pair = new int[2];",
                "    for (int r = 0; r < 3; r++) {",
                "      pair[r % 2] += r;",
                "    }",
                "    out[0] = pair[0] + block[self];",
                "  }",
                "  @Kernel(workgroup = {16, 16})",
                "  static void oneRowTooMany(int[] out) {",
                "    int[] block = Gpu.sharedInts(128 * 40);",
                "    int self = Gpu.localId(1) * 16 + Gpu.localId(0);",
                "    for (int part = 0; part < 16; part++) {",
                "      int index = self + part * 256 + 32;",
                "      block[index / 32 * 40 + index % 32] = part;",
                "    }",
                "    out[0] = 0;",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void unknownDivisorOrSign(int[] in, int[] out) {",
                "    int[] tile = Gpu.sharedInts(64);",
                "    int d = in[0];",
                "    tile[Gpu.localId(0) / d] = 1;",
                "    tile[in[1] % 64] = 2;",
                "    out[0] = 0;",
                "  }",
                "}"));
    assertThat(compilation).succeededWithoutWarnings();
    // the checks against the workgroup arrays' lengths, unsigned comparisons with them; pair's are
    // against 2: none in padded, whose only other check is out[0]'s (a buffer may be empty)
    Object[][] expected = {
      {"padded", "%uint_5120", 0},
      {"padded", "%uint_2 ", 0},
      {"oneRowTooMany", "%uint_5120", 1},
      {"unknownDivisorOrSign", "%uint_64", 2}
    };
    for (Object[] row : expected) {
      assertWithMessage("checks of %s against %s", row[0], row[1])
          .that(checksAgainst(compilation, "Strides", (String) row[0], (String) row[1]))
          .isEqualTo(((Integer) row[2]).longValue());
    }
    String padded =
        SpirvTools.disassemble(Kernels.module(compilation, "test", "Strides", "padded"));
    assertThat(padded.lines().filter(line -> line.contains("OpLogicalNot")).count()).isEqualTo(1);
  }

  /**
   * A value with no affine form keeps its range ({@code Gpu.subgroupId() % 8} lies in 0..7, so
   * {@code warp / 4 * 64} in 0..64), and a counter that steps by 16 below 32 is 0 or 16: the
   * indices built on them are proven inside the array; one step more is not.
   */
  @Test
  void rangesOfRemaindersAndMultiplesOfCountersProveIndices() {
    Compilation compilation =
        Kernels.compile(
            JavaFileObjects.forSourceLines(
                "test.Ranges",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Ranges {",
                "  @Kernel(workgroup = 256)",
                "  static void inside(float[] out) {",
                "    float[] tile = Gpu.sharedFloats(2320);",
                "    int warp = Gpu.subgroupId() % 8;",
                "    int row = warp / 4 * 64;",
                "    float sum = 0f;",
                "    for (int k = 0; k < 32; k += 16) {",
                "      sum += tile[row * 32 + k + 15 * 16 + 15];", // at most 64·32 + 16 + 255 =
                // 2319
                "    }",
                "    out[Gpu.globalId(0)] = sum;",
                "  }",
                "  @Kernel(workgroup = 256)",
                "  static void oneStepMore(float[] out) {",
                "    float[] tile = Gpu.sharedFloats(2320);",
                "    int warp = Gpu.subgroupId() % 8;",
                "    int row = warp / 4 * 64;",
                "    float sum = 0f;",
                "    for (int k = 0; k < 33; k += 16) {", // k reaches 32
                "      sum += tile[row * 32 + k + 15 * 16 + 15];",
                "    }",
                "    out[Gpu.globalId(0)] = sum;",
                "  }",
                "}"));
    assertThat(compilation).succeededWithoutWarnings();
    for (Object[] row : new Object[][] {{"inside", 0L}, {"oneStepMore", 1L}}) {
      assertWithMessage("checks of the tile in %s", row[0])
          .that(checksAgainst(compilation, "Ranges", (String) row[0], "%uint_2320"))
          .isEqualTo(row[1]);
    }
  }

  /**
   * A mask a helper takes as a parameter is a constant where the kernel passes one: the inlined
   * helper's {@code mine + (v & mask)}, {@code mine} in 0..768 and the mask 255, is proven inside
   * 1024 counters; with a mask of 511 it is not.
   */
  @Test
  void aConstantMaskPassedToAHelperProvesAnIndex() {
    Compilation compilation =
        Kernels.compile(
            JavaFileObjects.forSourceLines(
                "test.Masks",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Masks {",
                "  @Kernel(workgroup = 256)",
                "  static void inside(int[] in) {",
                "    int[] counters = Gpu.sharedInts(1024);",
                "    add(counters, Gpu.localId(0) / 64 * 256, 255, in[Gpu.globalId(0)]);",
                "  }",
                "  @Kernel(workgroup = 256)",
                "  static void maskTooWide(int[] in) {",
                "    int[] counters = Gpu.sharedInts(1024);",
                "    add(counters, Gpu.localId(0) / 64 * 256, 511, in[Gpu.globalId(0)]);",
                "  }",
                "  private static void add(int[] counters, int mine, int mask, int v) {",
                "    Gpu.atomicAdd(counters, mine + (v & mask), 1);",
                "  }",
                "}"));
    assertThat(compilation).succeededWithoutWarnings();
    for (Object[] row : new Object[][] {{"inside", 0L}, {"maskTooWide", 1L}}) {
      assertWithMessage("checks of the counters in %s", row[0])
          .that(checksAgainst(compilation, "Masks", (String) row[0], "%uint_1024"))
          .isEqualTo(row[1]);
    }
  }

  /**
   * A cooperative-matrix tile in workgroup memory whose offset has a known range and whose stride
   * is a constant loads with no check when its whole extent lies in the array (the offset 0 or 256
   * of a 512-short array, 16 rows of 16), and keeps its check when it may not (offset up to 512).
   */
  @Test
  void tilesInsideTheirArraysAreNotChecked() {
    Compilation compilation =
        Kernels.compile(
            JavaFileObjects.forSourceLines(
                "test.TileExtents",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "import dev.kiln.matrix.MatrixA;",
                "import dev.kiln.matrix.MatrixB;",
                "import dev.kiln.matrix.MatrixElement;",
                "import dev.kiln.matrix.MatrixLayout;",
                "final class TileExtents {",
                "  @Kernel(workgroup = 64)",
                "  static void inside(short[] a, float[] c) {",
                "    short[] tiles = Gpu.sharedPackedShorts(512);",
                "    System.arraycopy(a, 0, tiles, Gpu.localId(0) * 8, 8);",
                "    Gpu.barrier();",
                "    int at = Gpu.subgroupId() % 2 * 256;",
                "    MatrixA x = Gpu.loadMatrixA(tiles, at, 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);",
                "    MatrixB y = Gpu.loadMatrixB(a, 0, 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);",
                "    Gpu.storeAccumulator(Gpu.multiplyAdd(x, y, Gpu.fillAccumulator(0f)), c, 0, 16, MatrixLayout.ROW_MAJOR);",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void mayPass(short[] a, float[] c) {",
                "    short[] tiles = Gpu.sharedPackedShorts(512);",
                "    System.arraycopy(a, 0, tiles, Gpu.localId(0) * 8, 8);",
                "    Gpu.barrier();",
                "    int at = Gpu.subgroupId() % 3 * 256;",
                "    MatrixA x = Gpu.loadMatrixA(tiles, at, 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);",
                "    MatrixB y = Gpu.loadMatrixB(a, 0, 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);",
                "    Gpu.storeAccumulator(Gpu.multiplyAdd(x, y, Gpu.fillAccumulator(0f)), c, 0, 16, MatrixLayout.ROW_MAJOR);",
                "  }",
                "}"));
    assertThat(compilation).succeeded();
    for (Object[] row : new Object[][] {{"inside", 0L}, {"mayPass", 1L}}) {
      String text =
          SpirvTools.disassemble(
              Kernels.module(compilation, "test", "TileExtents", (String) row[0]));
      assertWithMessage("extent checks of the tile in %s", row[0])
          .that(
              text.lines()
                  .filter(line -> line.contains("OpSLessThan") && line.contains("%int_512"))
                  .count())
          .isEqualTo(row[1]);
    }
  }

  /** The bounds checks against the tile's length, 64: an unsigned comparison with that constant. */
  private static long tileChecks(Compilation compilation, String kernel) {
    return checksAgainst(compilation, "Tiles", kernel, "%uint_64");
  }

  /**
   * The bounds checks in {@code test.<type>.<kernel>}'s module against the constant {@code length}
   * (an id such as {@code %uint_64}): unsigned comparisons with it.
   */
  private static long checksAgainst(
      Compilation compilation, String type, String kernel, String length) {
    String text = SpirvTools.disassemble(Kernels.module(compilation, "test", type, kernel));
    return text.lines()
        .filter(line -> line.contains("OpULessThan") && line.contains(length))
        .count();
  }
}
