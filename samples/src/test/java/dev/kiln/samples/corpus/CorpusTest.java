package dev.kiln.samples.corpus;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import corpus.ElementaryOpsKernels;
import corpus.EmbeddedKernels;
import corpus.HelpersKernels;
import corpus.LabelledLoopsKernels;
import corpus.LanguageKernels;
import corpus.LoopsKernels;
import corpus.MiscKernels;
import corpus.OperatorsKernels;
import corpus.Operators_NestedKernels;
import corpus.PrivateArraysKernels;
import corpus.SaxpyKernels;
import corpus.SideEffectsKernels;
import corpus.SubgroupsKernels;
import corpus.SwitchesKernels;
import corpus.WideKernels;
import dev.kiln.Grid;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every kernel of the processor's corpus gives on Vulkan exactly what it gives as Java on the CPU
 * backend, for random inputs at sizes that are not multiples of the workgroup size.
 */
class CorpusTest extends BothDevices {
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 255, 257, 4099})
  void saxpy(int n) {
    compare("saxpy", n, r -> new Object[] {r.nextFloat(), Bits.randomFloats(r, n, 100f), Bits.randomFloats(r, n, 100f)},
        (d, a) -> SaxpyKernels.saxpy(d, n, (float) a[0], (float[]) a[1], (float[]) a[2]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void horner(int n) {
    compare("horner", n,
        r -> new Object[] {Bits.randomFloats(r, 1 + r.nextInt(20), 1f), Bits.randomFloats(r, n, 1.1f), new float[n]},
        (d, a) -> LoopsKernels.horner(d, n, (float[]) a[0], (float[]) a[1], (float[]) a[2]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 31, 33, 4099})
  void collatz(int n) {
    compare("collatz", n,
        r -> new Object[] {r.ints(n, 1, 1_000_000).toArray(), new int[n], 1 + r.nextInt(300)},
        (d, a) -> LoopsKernels.collatz(d, n, (int[]) a[0], (int[]) a[1], (int) a[2]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void digits(int n) {
    compare("digits", n,
        r -> new Object[] {Bits.randomInts(r, n), new int[n]},
        (d, a) -> LoopsKernels.digits(d, n, (int[]) a[0], (int[]) a[1]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void integers(int n) {
    compare("integers", n,
        r -> new Object[] {Bits.randomInts(r, n), Bits.randomInts(r, n), new int[n], r.nextInt(64)},
        (d, a) -> OperatorsKernels.integers(d, n, (int[]) a[0], (int[]) a[1], (int[]) a[2], (int) a[3]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void floats(int n) {
    compare("floats", n,
        r -> new Object[] {Bits.randomFloats(r, n, 1e6f), r.ints(n, -1000, 1000).toArray(), new float[n], new int[n],
            r.nextFloat(-3f, 3f)},
        (d, a) -> OperatorsKernels.floats(d, n, (float[]) a[0], (int[]) a[1], (float[]) a[2], (int[]) a[3], (float) a[4]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 7, 9, 1001})
  void ids(int n) {
    compare("ids", n, r -> new Object[] {new int[n]}, (d, a) -> OperatorsKernels.ids(d, Grid.of(n, 1, 1), (int[]) a[0]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65})
  void nestedClassKernel(int n) {
    compare("fill", n, r -> new Object[] {new float[n], r.nextFloat()},
        (d, a) -> Operators_NestedKernels.fill(d, n, (float[]) a[0], (float) a[1]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void switches(int n) {
    compare("classic switch", n, r -> new Object[] {Bits.randomInts(r, n), new int[n]},
        (d, a) -> SwitchesKernels.classic(d, n, (int[]) a[0], (int[]) a[1]));
    compare("switch rules", n, r -> new Object[] {Bits.randomInts(r, n), new int[n]},
        (d, a) -> SwitchesKernels.rules(d, n, (int[]) a[0], (int[]) a[1]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void helpers(int n) {
    compare("helpers", n, r -> new Object[] {Bits.randomFloats(r, n, 10f), new float[n], new int[n]},
        (d, a) -> HelpersKernels.useHelpers(d, n, (float[]) a[0], (float[]) a[1], (int[]) a[2]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void statementsInsideExpressions(int n) {
    compare("embedded", n,
        r -> new Object[] {Bits.randomFloats(r, n, 4f), Bits.randomFloats(r, n, 4f), new float[n], new int[n],
            Bits.randomFloats(r, n, 10f), 1 + r.nextInt(40)},
        (d, a) -> EmbeddedKernels.embedded(d, n, (float[]) a[0], (float[]) a[1], (float[]) a[2], (int[]) a[3],
            (float[]) a[4], (int) a[5]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void privateArrays(int n) {
    compare("sorted groups", n, r -> new Object[] {Bits.randomFloats(r, 4 * n, 10f), new float[4 * n]},
        (d, a) -> PrivateArraysKernels.sortGroups(d, n, (float[]) a[0], (float[]) a[1]));
    compare("weights", n, r -> new Object[] {Bits.randomInts(r, n), new int[n]},
        (d, a) -> PrivateArraysKernels.weights(d, n, (int[]) a[0], (int[]) a[1]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void subgroupInvariants(int n) {
    compare("subgroup invariants", n, r -> new Object[] {Bits.randomInts(r, n), Bits.randomFloats(r, n, 5f), new int[n]},
        (d, a) -> SubgroupsKernels.invariants(d, n, (int[]) a[0], (float[]) a[1], (int[]) a[2]));
    compare("subgroup invariants of longs and doubles", n,
        r -> new Object[] {r.longs(n).toArray(), r.doubles(n, -1e9, 1e9).toArray(), new int[n]},
        (d, a) -> SubgroupsKernels.wideInvariants(d, n, (long[]) a[0], (double[]) a[1], (int[]) a[2]));
    // launched on whole workgroups: a shuffle from an invocation past the launch's count reads what the GPU picks
    int whole = (n + 63) / 64 * 64;
    compare("shuffles and scans", n, r -> new Object[] {Bits.randomInts(r, n), r.longs(n).toArray(), new int[n]},
        (d, a) -> SubgroupsKernels.crossLane(d, whole, (int[]) a[0], (long[]) a[1], (int[]) a[2]));
  }

  /** Values that depend on the subgroup size: the CPU backend emulates the Vulkan device's (BothDevices). */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void subgroupLanes(int n) {
    int whole = (n + 63) / 64 * 64;
    compare("lanes", n, r -> new Object[] {Bits.randomInts(r, n), new int[8 * n]},
        (d, a) -> SubgroupsKernels.lanes(d, whole, (int[]) a[0], (int[]) a[1]));
    compare("active lanes", n, r -> new Object[] {Bits.randomInts(r, n), new int[4 * n]},
        (d, a) -> SubgroupsKernels.activeLanes(d, n, (int[]) a[0], (int[]) a[1]));
  }

  /** Partitions where the Vulkan device offers them; lavapipe does not ({@link #offeredOrRefused}). */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void partitions(int n) {
    int whole = (n + 63) / 64 * 64;
    offeredOrRefused("partitions", n, "corpus.Subgroups#partitions uses partitioned subgroup operations, which needs"
        + " VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV in supportedOperations (VK_NV_shader_subgroup_partitioned)", 31, (d, a) -> SubgroupsKernels.partitions(d, whole, a[0], a[1]));
  }

  /** Clustered reductions where the Vulkan device offers them; lavapipe does not ({@link #offeredOrRefused}). */
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void clusteredReductions(int n) {
    offeredOrRefused("clustered reductions", n, "corpus.Subgroups#clusters uses clustered subgroup reductions, which"
        + " needs VK_SUBGROUP_FEATURE_CLUSTERED_BIT in supportedOperations", 15,
        (d, a) -> SubgroupsKernels.clusters(d, n, a[0], a[1]));
  }

  /**
   * A kernel of optional subgroup operations on {@code n} random ints, writing flags: where the
   * Vulkan device offers them, methods, twins and Vulkan agree bit for bit; where not (lavapipe),
   * its launch is refused with {@code refusal}'s full message, and methods and twins agree, every
   * flag {@code all}.
   */
  private static void offeredOrRefused(String what, int n, String refusal, int all,
      java.util.function.BiConsumer<dev.kiln.Device, int[][]> launch) {
    int[] values = Bits.randomInts(new Random(n), n);
    try {
      launch.accept(vulkan, new int[][] {values.clone(), new int[n]});
    } catch (IllegalStateException refused) {
      assertEquals(refusal + "; " + vulkan.name() + " lacks it", refused.getMessage());
      int[] onMethods = new int[n];
      int[] onTwins = new int[n];
      launch.accept(cpuMethods, new int[][] {values.clone(), onMethods});
      launch.accept(cpu, new int[][] {values.clone(), onTwins});
      assertArrayEquals(onMethods, onTwins);
      assertTrue(Arrays.stream(onTwins).allMatch(ok -> ok == all), Arrays.toString(onTwins));
      return;
    }
    compare(what, n, r -> new Object[] {Bits.randomInts(r, n), new int[n]},
        (d, a) -> launch.accept(d, new int[][] {(int[]) a[0], (int[]) a[1]}));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void longsAndDoubles(int n) {
    compare("longs", n,
        r -> new Object[] {r.longs(n).toArray(), r.longs(n).toArray(), r.ints(n, 0, 200).toArray(), new long[7 * n],
            r.nextLong()},
        (d, a) -> WideKernels.longs(d, n, (long[]) a[0], (long[]) a[1], (int[]) a[2], (long[]) a[3], (long) a[4]));
    compare("doubles", n,
        r -> new Object[] {r.doubles(n, -1e6, 1e6).toArray(), r.doubles(n, -100, 100).toArray(),
            Bits.randomFloats(r, n, 1e3f), new double[7 * n], new long[2 * n], r.nextDouble()},
        (d, a) -> WideKernels.doubles(d, n, (double[]) a[0], (double[]) a[1], (float[]) a[2], (double[]) a[3],
            (long[]) a[4], (double) a[5]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void labelledJumps(int n) {
    compare("labelled loops", n, r -> new Object[] {Bits.randomInts(r, n), new int[n]},
        (d, a) -> LabelledLoopsKernels.search(d, n, (int[]) a[0], (int[]) a[1]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void intOps(int n) {
    compare("intOps", n,
        r -> new Object[] {Bits.randomInts(r, n), Bits.randomInts(r, n), new int[16 * n], r.nextInt(64)},
        (d, a) -> ElementaryOpsKernels.intOps(d, n, (int[]) a[0], (int[]) a[1], (int[]) a[2], (int) a[3]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void floatOps(int n) {
    compare("floatOps", n,
        r -> new Object[] {Bits.randomFloats(r, n, 1e4f), Bits.randomFloats(r, n, 10f), new float[12 * n], new int[2 * n]},
        (d, a) -> ElementaryOpsKernels.floatOps(d, n, (float[]) a[0], (float[]) a[1], (float[]) a[2], (int[]) a[3]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void enhancedForSwitchExpressionsAndConstantVariables(int n) {
    compare("for-each", n,
        r -> new Object[] {Bits.randomInts(r, n), Bits.randomFloats(r, 1 + r.nextInt(40), 100f), new int[n]},
        (d, a) -> LanguageKernels.forEach(d, n, (int[]) a[0], (float[]) a[1], (int[]) a[2]));
    compare("switch expressions", n,
        r -> new Object[] {Bits.randomInts(r, n), new int[n], new float[n]},
        (d, a) -> LanguageKernels.switches(d, n, (int[]) a[0], (int[]) a[1], (float[]) a[2]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void assignmentsAndIncrementsInsideExpressions(int n) {
    compare("inside expressions", n, r -> new Object[] {Bits.randomInts(r, n), new int[8 * n], new int[4 * n]},
        (d, a) -> SideEffectsKernels.insideExpressions(d, n, (int[]) a[0], (int[]) a[1], (int[]) a[2]));
    // the atomics' totals do not depend on the order of invocations; their values are folded to 1 or 0
    compare("elements and atomics", n, r -> new Object[] {Bits.randomFloats(r, n, 100f), new int[2], Bits.randomInts(r, n)},
        (d, a) -> SideEffectsKernels.elementsAndAtomics(d, n, (float[]) a[0], (int[]) a[1], (int[]) a[2]));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 4099})
  void miscellany(int n) {
    compare("booleans", n, r -> new Object[] {Bits.randomInts(r, n), new int[n]},
        (d, a) -> MiscKernels.booleans(d, n, (int[]) a[0], (int[]) a[1]));
    compare("compound assignments on arrays", n,
        r -> new Object[] {Bits.randomInts(r, n), Bits.randomFloats(r, n, 100f), r.nextInt()},
        (d, a) -> MiscKernels.compoundOnArrays(d, n, (int[]) a[0], (float[]) a[1], (int) a[2]));
    compare("implicit narrowing", n, r -> new Object[] {Bits.randomFloats(r, n, 1e3f), new int[n]},
        (d, a) -> MiscKernels.implicitNarrowing(d, n, (float[]) a[0], (int[]) a[1]));
    compare("var and scopes", n, r -> new Object[] {Bits.randomInts(r, n), new int[n]},
        (d, a) -> MiscKernels.varLocalsAndScopes(d, n, (int[]) a[0], (int[]) a[1]));
    compare("nested library calls", n,
        r -> new Object[] {Bits.randomInts(r, n), Bits.randomFloats(r, n, 1e20f), new int[n]},
        (d, a) -> MiscKernels.nestedLibraryCalls(d, n, (int[]) a[0], (float[]) a[1], (int[]) a[2]));
    compare("while conditions", n, r -> new Object[] {Bits.randomInts(r, n), new int[n]},
        (d, a) -> MiscKernels.whileWithComplexCondition(d, n, (int[]) a[0], (int[]) a[1]));
    compare("constants", n, r -> new Object[] {Bits.randomFloats(r, n, 1e3f), new int[n]},
        (d, a) -> MiscKernels.constantsFromOtherClasses(d, n, (float[]) a[0], (int[]) a[1]));
    compare("assigned parameters", n, r -> new Object[] {new int[n], r.nextInt(), r.nextFloat()},
        (d, a) -> MiscKernels.assignedScalarParameters(d, n, (int[]) a[0], (int) a[1], (float) a[2]));
    compare("workgroup of one", n, r -> new Object[] {new int[n]},
        (d, a) -> MiscKernels.workgroupOfOne(d, n, (int[]) a[0]));
    compare("workgroup of 1024", n, r -> new Object[] {new int[n]},
        (d, a) -> MiscKernels.largestWorkgroup(d, n, (int[]) a[0]));
    compare("early returns", n, r -> new Object[] {Bits.randomInts(r, n), new int[n]},
        (d, a) -> MiscKernels.earlyReturns(d, n, (int[]) a[0], (int[]) a[1]));
    compare("nested conditionals", n, r -> new Object[] {Bits.randomFloats(r, n, 30f), new float[n]},
        (d, a) -> MiscKernels.nestedConditionals(d, n, (float[]) a[0], (float[]) a[1]));
  }

  @ParameterizedTest(name = "{0} per axis")
  @ValueSource(ints = {1, 3, 5, 9})
  void threeAxes(int size) {
    int width = size;
    int height = size + 1;
    int depth = size + 2;
    compare("three axes", size, r -> new Object[] {new int[width * height * depth]},
        (d, a) -> MiscKernels.threeAxes(d, Grid.of(width, height, depth), (int[]) a[0], width, height));
  }
}
