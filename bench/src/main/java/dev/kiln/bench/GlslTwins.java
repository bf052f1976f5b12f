package dev.kiln.bench;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.SplitForm;
import dev.kiln.abi.NumericType;
import dev.kiln.annotations.Access;
import java.lang.invoke.MethodHandles;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The workloads hand-written in GLSL ({@code src/main/resources/dev/kiln/bench/glsl/*.comp},
 * compiled with {@code glslc -O} by {@code bench/glsl.sh}), run through Kiln's runtime like its
 * own kernels. Each takes the launch ABI's push constants (count, first group, count y, count z)
 * before its scalars; the vec4 ones are launched with a quarter of the elements as count.
 */
final class GlslTwins {
  private GlslTwins() {}

  static final KernelSpec COPY4 = twin("copy4", List.of(
      KernelSpec.Param.buffer("from", NumericType.FLOAT, Access.READ),
      KernelSpec.Param.buffer("to", NumericType.FLOAT, Access.WRITE)));
  static final KernelSpec SAXPY4 = twin("saxpy4", List.of(
      KernelSpec.Param.buffer("x", NumericType.FLOAT, Access.READ),
      KernelSpec.Param.buffer("y", NumericType.FLOAT, Access.READ_WRITE),
      KernelSpec.Param.scalar("a", NumericType.FLOAT)));
  static final KernelSpec CHAIN4 = twin("chain4", List.of(
      KernelSpec.Param.buffer("data", NumericType.FLOAT, Access.READ_WRITE),
      KernelSpec.Param.scalar("a", NumericType.FLOAT), KernelSpec.Param.scalar("b", NumericType.FLOAT),
      KernelSpec.Param.scalar("lo", NumericType.FLOAT), KernelSpec.Param.scalar("hi", NumericType.FLOAT)));

  static final KernelSpec SUM = twin("sum", List.of(
      KernelSpec.Param.buffer("values", NumericType.INT, Access.READ),
      KernelSpec.Param.buffer("total", NumericType.INT, Access.READ_WRITE)));
  static final KernelSpec SCAN = twin("scan", List.of(
      KernelSpec.Param.buffer("values", NumericType.INT, Access.READ),
      KernelSpec.Param.buffer("sums", NumericType.INT, Access.WRITE)));
  static final KernelSpec HISTOGRAM = twin("histogram", List.of(
      KernelSpec.Param.buffer("values", NumericType.INT, Access.READ),
      KernelSpec.Param.buffer("bins", NumericType.INT, Access.READ_WRITE)));
  /**
   * {@code dev.kiln.library.ScanKernels.intTotals} and {@code intTiles} by hand (inclusive): the
   * library's reduce-then-scan over tiles of 2048 ints, 32-byte reads and writes.
   */
  static final KernelSpec SCAN_TOTALS = twin("scantotals", List.of(
      KernelSpec.Param.buffer("in", NumericType.INT, Access.READ),
      KernelSpec.Param.buffer("totals", NumericType.INT, Access.WRITE),
      KernelSpec.Param.scalar("n", NumericType.INT)));
  static final KernelSpec SCAN_TILES = twin("scantiles", List.of(
      KernelSpec.Param.buffer("in", NumericType.INT, Access.READ),
      KernelSpec.Param.buffer("out", NumericType.INT, Access.WRITE),
      KernelSpec.Param.buffer("offsets", NumericType.INT, Access.READ),
      KernelSpec.Param.scalar("n", NumericType.INT),
      KernelSpec.Param.scalar("offsetsGiven", NumericType.INT)));
  /** {@code dev.kiln.samples.ByteHistogram.count} by hand: a persistent grid, privatized bins, runs. */
  static final KernelSpec HISTOGRAM_FAST = twin("histogram256", HISTOGRAM.params());
  static final KernelSpec STENCIL = twin2d("stencil", List.of(
      KernelSpec.Param.buffer("in", NumericType.FLOAT, Access.READ),
      KernelSpec.Param.buffer("out", NumericType.FLOAT, Access.WRITE),
      KernelSpec.Param.scalar("width", NumericType.INT), KernelSpec.Param.scalar("height", NumericType.INT)));
  static final KernelSpec SGEMM = twin2d("sgemm", List.of(
      KernelSpec.Param.buffer("a", NumericType.FLOAT, Access.READ),
      KernelSpec.Param.buffer("b", NumericType.FLOAT, Access.READ),
      KernelSpec.Param.buffer("c", NumericType.FLOAT, Access.WRITE),
      KernelSpec.Param.scalar("n", NumericType.INT)));

  /**
   * {@code dev.kiln.samples.BlockedMatrixMultiply} (for n x n) by hand; by hand with 16-byte
   * accesses throughout (n a multiple of 128); and that with the next stage prefetched into
   * registers, {@code RegisterTiles.prefetched}'s twin.
   */
  static final KernelSpec SGEMM_BLOCKED = twin2d("sgemm128", SGEMM.params());
  static final KernelSpec SGEMM_BLOCKED_VEC4 = twin2d("sgemm128v4", SGEMM.params());
  static final KernelSpec SGEMM_PREFETCHED = twin2d("sgemm128pf", SGEMM.params());

  /** A twin with a 256 x 1 x 1 workgroup, its module {@code glsl/<name>.spv} beside this class. */
  static KernelSpec twin(String name, List<KernelSpec.Param> params) {
    return spec(name, new int[] {256, 1, 1}, params);
  }

  /**
   * The float16 tensor-core product staged through workgroup memory, a 128 x 128 block per
   * workgroup of 16 x 16 (n a multiple of 128): what the driver's cooperative matrices reach.
   */
  static final KernelSpec HGEMM_STAGED = twin2d("hgemm128", List.of(
      KernelSpec.Param.buffer("a", NumericType.SHORT, Access.READ),
      KernelSpec.Param.buffer("b", NumericType.SHORT, Access.READ),
      KernelSpec.Param.buffer("c", NumericType.FLOAT, Access.WRITE),
      KernelSpec.Param.scalar("n", NumericType.INT)));

  /**
   * A variant of the float16 products in {@code glsl/hgemm-*.template.comp} ({@code bench/glsl.sh}
   * compiles each with its defines): the module, and the block of {@code c} each workgroup of
   * 16 x 16 covers. Prefetching stages ({@code hgemm128pf}, ...), the multiply-adds alone
   * ({@code hgemmpeak4x2}, not a product) and matrices of workgroup scope ({@code hgemmwg128}, ...).
   */
  record HalfTwin(String module, int rows, int columns) {
    KernelSpec spec() {
      return twin2d(module, HGEMM_STAGED.params());
    }
  }

  /** Every {@link HalfTwin}, as bench/glsl.sh lists them. */
  static final List<HalfTwin> HALF_TWINS = List.of(
      new HalfTwin("hgemm128pf", 128, 128), new HalfTwin("hgemm128pf64", 128, 128),
      new HalfTwin("hgemm128x256pf", 128, 256), new HalfTwin("hgemm256x128pf", 256, 128),
      new HalfTwin("hgemmpeak4x2", 128, 128), new HalfTwin("hgemmpeak4x4", 128, 128),
      new HalfTwin("hgemmwg128", 128, 128), new HalfTwin("hgemmwg128k64", 128, 128),
      new HalfTwin("hgemmwg128x256", 128, 256), new HalfTwin("hgemmwg256x128", 256, 128));

  /** The {@link HalfTwin} of {@code module}. */
  static HalfTwin halfTwin(String module) {
    return HALF_TWINS.stream().filter(twin -> twin.module().equals(module)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no GLSL variant " + module + "; bench/glsl.sh lists them"));
  }

  private static KernelSpec twin2d(String name, List<KernelSpec.Param> params) {
    return spec(name, new int[] {Workgroups.TILE, Workgroups.TILE, 1}, params);
  }

  private static KernelSpec spec(String name, int[] workgroup, List<KernelSpec.Param> params) {
    KernelSpec spec = new KernelSpec(MethodHandles.lookup(), GlslTwins.class, name, "glsl/" + name + ".spv", workgroup,
        params, args -> {
          throw new UnsupportedOperationException("GLSL twins run on Vulkan only");
        });
    return spec.describedBy(new KernelDescription(features(name), 1, false, 0, List.of(),
        params.stream().map(KernelSpec.Param::access).toList(), List.of(), List.of(),
        dev.kiln.backend.KernelDescriptions.declared(spec).aliasConflicts(), SplitForm.refused("a GLSL twin does not split")));
  }

  /**
   * What a twin needs of a device, from its {@code #extension}s: the float16 products cooperative
   * matrices of float16 (they declare the Vulkan memory model and subgroups), the workgroup-scope
   * ones tensor layouts too; the others nothing beyond core compute (glslc writes no float controls).
   */
  private static Set<DeviceFeature> features(String name) {
    if (!name.startsWith("hgemm")) {
      return Set.of();
    }
    Set<DeviceFeature> features = EnumSet.of(DeviceFeature.SUBGROUPS, DeviceFeature.COOPERATIVE_MATRICES,
        DeviceFeature.FLOAT16_MATRICES, DeviceFeature.VULKAN_MEMORY_MODEL);
    if (name.startsWith("hgemmwg")) {
      features.add(DeviceFeature.TENSOR_LAYOUTS);
    }
    return features;
  }
}
