package dev.kiln.cpu;

import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.LaunchAbi;
import java.lang.invoke.MethodHandle;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A kernel's or group's CPU twin: the method the processor generated from its IR into {@code
 * <Owner>$KilnCpu}, which runs a range of workgroups as plain loops. Absent where the processor
 * made none (see its {@code -Akiln.dump}); a CPU backend opened with {@code -Dkiln.cpu=java} runs
 * the kernel methods themselves instead: the path to debug a kernel in, and the oracle the twins
 * are tested against.
 */
final class CpuTwin {
  private static final Map<KernelSpec, Optional<CpuTwin>> FOUND = new ConcurrentHashMap<>();

  private final KernelSpec spec;
  private final MethodHandle method;

  private CpuTwin(KernelSpec spec, MethodHandle method) {
    this.spec = spec;
    this.method = method;
  }

  static Optional<CpuTwin> of(KernelSpec spec) {
    return FOUND.computeIfAbsent(spec, CpuTwin::find);
  }

  private static Optional<CpuTwin> find(KernelSpec spec) {
    return spec.cpuTwin(LaunchAbi.TWIN_TYPE).map(method -> new CpuTwin(spec, method));
  }

  /**
   * Runs workgroups {@code first .. end-1} of a dispatch of {@code dispatch} invocations along each
   * axis, in subgroups of {@code subgroupSize} lanes.
   */
  void run(Object[] args, int[] grids, int[] dispatch, int first, int end, int subgroupSize) {
    try {
      method.invokeExact(
          args, grids, dispatch[0], dispatch[1], dispatch[2], first, end, subgroupSize);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("the CPU twin of " + spec + " threw " + t, t);
    }
  }
}
