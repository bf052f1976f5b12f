package dev.kiln.bench.host;

import dev.kiln.abi.KernelSpec;
import dev.kiln.backend.Launch;
import dev.kiln.backend.SettledChecks;
import dev.kiln.bench.WorkgroupsKernels;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the Vulkan launch path pays to ask whether a launch settles its kernel's checks
 * ({@code SettledChecks.hold}), for the checked 5-point stencil (six proofs): {@code same}, a launch
 * with the values of the last one, and {@code alternating}, two shapes in turn, both answered from
 * what is remembered; {@code evaluate}, the six proofs evaluated, as a launch of a new shape does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SettledChecksCost {
  private final Launch first = new Launch();
  private final Launch second = new Launch();
  private boolean flip;
  private java.util.List<dev.kiln.abi.LaunchProof> proofs;

  @Setup
  public void prepare() throws ReflectiveOperationException {
    java.lang.reflect.Field field = WorkgroupsKernels.class.getDeclaredField("STENCIL");
    field.setAccessible(true);
    KernelSpec stencil = (KernelSpec) field.get(null);
    proofs = dev.kiln.backend.KernelDescriptions.of(stencil).proofs();
    describe(first.start(stencil), 4096);
    describe(second.start(stencil), 4000);
    if (!SettledChecks.hold(first) || !SettledChecks.hold(second)) {
      throw new AssertionError("the stencil's launches should settle its checks");
    }
  }

  private static void describe(Launch launch, int side) {
    launch.grid(0, side, side, 1);
    float[] cells = new float[side * side];
    launch.arg(0, cells);
    launch.arg(1, cells);
    launch.arg(2, side);
    launch.arg(3, side);
  }

  @Benchmark
  public boolean same() {
    return SettledChecks.hold(first);
  }

  @Benchmark
  public boolean evaluate() {
    boolean holds = true;
    for (dev.kiln.abi.LaunchProof proof : proofs) {
      holds &= proof.holds(first);
    }
    return holds;
  }

  @Benchmark
  public boolean alternating() {
    flip = !flip;
    return SettledChecks.hold(flip ? first : second);
  }
}
