package corpus;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.DeviceSet;
import dev.kiln.FloatArray;
import dev.kiln.ShardedArray;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.NumericType;
import dev.kiln.annotations.Access;
import dev.kiln.internal.Dispatch;
import java.lang.invoke.MethodHandles;
import java.util.List;
import javax.annotation.processing.Generated;

/**
 * Launchers for the kernels of {@link Saxpy}.
 */
@Generated(
    value = "dev.kiln.processor.KilnProcessor",
    comments = "from corpus.Saxpy"
)
public final class SaxpyKernels {
  private static final KernelSpec SAXPY = new KernelSpec(
      MethodHandles.lookup(), Saxpy.class, "saxpy", "Saxpy.saxpy.spv", new int[] {256, 1, 1},
      List.of(
          KernelSpec.Param.scalar("a", NumericType.FLOAT),
          KernelSpec.Param.buffer("x", NumericType.FLOAT, Access.READ),
          KernelSpec.Param.buffer("y", NumericType.FLOAT, Access.READ_WRITE)),
      args -> Saxpy.saxpy((float) args[0], (float[]) args[1], (float[]) args[2]));

  private SaxpyKernels() {
  }

  /**
   * Runs {@link Saxpy#saxpy} on {@code device} for {@code count} invocations along x, on device arrays, and waits for
   * it.
   */
  public static void saxpy(Device device, int count, float a, FloatArray x, FloatArray y) {
    Dispatch.dispatch(device, SAXPY, count, a, x, y);
  }

  /**
   * Runs {@link Saxpy#saxpy} on {@code device} for {@code count} invocations along x, on Java arrays: copies them to the
   * device, runs, and copies back every array it may write.
   */
  public static void saxpy(Device device, int count, float a, float[] x, float[] y) {
    Dispatch.run(device, SAXPY, count, a, x, y);
  }

  /**
   * Runs {@link Saxpy#saxpy} split across {@code devices} for {@code count} invocations along x, on Java arrays: each
   * device runs a range of ids on copies of what it needs, and its range of each array it may write comes
   * back. Throws {@code IllegalArgumentException} where the kernel cannot split (the message says why).
   */
  public static void saxpy(DeviceSet devices, int count, float a, float[] x, float[] y) {
    Dispatch.run(devices, SAXPY, count, a, x, y);
  }

  /**
   * Runs {@link Saxpy#saxpy} split across {@code devices} for {@code count} invocations along x, on sharded arrays: each
   * device runs the ids of its shards on the arrays it holds, after the halos it reads are brought up to date.
   * Throws {@code IllegalArgumentException} where the kernel or the arrays' layout cannot split (the message
   * says why).
   */
  public static void saxpy(DeviceSet devices, int count, float a, ShardedArray<float[]> x,
      ShardedArray<float[]> y) {
    Dispatch.runSharded(devices, SAXPY, count, a, x, y);
  }

  /**
   * Records a launch of {@link Saxpy#saxpy} into {@code batch} for {@code count} invocations along x, on device arrays.
   */
  public static void saxpy(Batch batch, int count, float a, FloatArray x, FloatArray y) {
    Dispatch.record(batch, SAXPY, count, a, x, y);
  }
}
