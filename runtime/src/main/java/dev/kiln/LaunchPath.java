package dev.kiln;

import dev.kiln.abi.KernelSpec;
import dev.kiln.backend.Backend;
import dev.kiln.backend.BackendBatch;
import dev.kiln.backend.KernelDescriptions;
import dev.kiln.backend.Launch;
import java.util.List;
import jdk.jfr.FlightRecorder;

/**
 * A device's launch path: the generated launchers' calls (through {@code dev.kiln.internal} and
 * {@link dev.kiln.access.LaunchAccess}) reach it with a launch whose grids are set. It checks the
 * arguments against the kernel (arity, types, arrays of this device, one array for two buffers that
 * may not share one) and the launch against the bounds its module's proofs need, unwraps device
 * arrays to their buffers, runs the launch on the backend with the device held open, and records
 * the device time for {@link Device#lastDeviceNanos()} and JFR's {@code dev.kiln.Dispatch} event.
 */
final class LaunchPath {
  private static final ThreadLocal<long[]> LAST_DEVICE_NANOS =
      ThreadLocal.withInitial(() -> new long[] {-1});

  private final Device device;
  private final Backend backend;
  private volatile boolean timeLaunches;

  LaunchPath(Device device, Backend backend) {
    this.device = device;
    this.backend = backend;
  }

  /** The calling thread's last launch's device time, in nanoseconds, or -1. */
  static long lastDeviceNanos() {
    return LAST_DEVICE_NANOS.get()[0];
  }

  /** Whether single launches record GPU timestamps. */
  void timeLaunches(boolean on) {
    timeLaunches = on;
  }

  /** Runs {@code launch} (grids set) on device arrays {@code args}. */
  void onDevice(Launch launch, Object[] args) {
    device.gate().enter();
    try {
      setDeviceArguments(launch, args);
      if (!launch.isEmpty()) {
        checkBounds(launch);
        launch(launch, false);
      }
    } finally {
      launch.clearArguments();
      device.gate().exit();
    }
  }

  /**
   * Runs the launch (its buffer arguments Java arrays where {@code onArrays}), and records its
   * device time for {@link #lastDeviceNanos()} and JFR.
   */
  private void launch(Launch launch, boolean onArrays) {
    if (!FlightRecorder.isInitialized()) {
      // no recording has started in this JVM: leave JFR's event machinery unloaded (about a hundred
      // classes, tens of milliseconds on the first launch)
      LAST_DEVICE_NANOS.get()[0] = dispatchToBackend(launch, onArrays, timeLaunches);
      return;
    }
    DispatchEvent event = new DispatchEvent();
    boolean timed =
        timeLaunches || event.isEnabled(); // a JFR recording of Kiln's events gets device times
    event.begin();
    long nanos = dispatchToBackend(launch, onArrays, timed);
    LAST_DEVICE_NANOS.get()[0] = nanos;
    event.end();
    if (event.shouldCommit()) {
      event.kernel = launch.spec().toString();
      event.device = device.name();
      event.workgroups = (long) launch.workgroups(0) * launch.workgroups(1) * launch.workgroups(2);
      event.deviceNanos = nanos;
      event.commit();
    }
  }

  private long dispatchToBackend(Launch launch, boolean onArrays, boolean timed) {
    return onArrays ? backend.dispatchOnArrays(launch, timed) : backend.dispatch(launch, timed);
  }

  /**
   * Runs {@code launch} (grids set) on copies of the Java arrays in {@code args}, copying back what
   * it may write.
   */
  void onCopies(Launch launch, Object[] args) {
    device.gate().enter();
    try {
      checkArguments(launch.spec(), args);
      checkAliases(launch.spec(), args);
      for (int i = 0; i < args.length; i++) {
        launch.arg(i, args[i]);
      }
      if (!launch.isEmpty()) {
        checkBounds(launch);
        launch(launch, true);
      }
    } finally {
      launch.clearArguments();
      device.gate().exit();
    }
  }

  /**
   * Records {@code launch} (grids set) on device arrays {@code args} into {@code batch}, unless its
   * grids are empty; {@code holder} holds each array, so that closing it frees nothing the batch
   * still needs.
   */
  void record(BackendBatch batch, Launch launch, Object[] args, Batch holder) {
    device.gate().enter();
    try {
      setDeviceArguments(launch, args);
      if (!launch.isEmpty()) {
        checkBounds(launch);
        batch.record(launch);
        for (int i = 0; i < args.length; i++) {
          if (args[i] instanceof DeviceArray<?, ?> array) {
            holder.hold(array, launch.spec(), i);
          }
        }
      }
    } finally {
      launch.clearArguments();
      device.gate().exit();
    }
  }

  /**
   * Checks {@code args} (device arrays of this device and boxed scalars) and sets them, unwrapped,
   * in {@code launch}.
   */
  private void setDeviceArguments(Launch launch, Object[] args) {
    KernelSpec spec = launch.spec();
    checkArguments(spec, args);
    checkAliases(spec, args);
    for (int i = 0; i < args.length; i++) {
      if (args[i] instanceof DeviceArray<?, ?> array) {
        if (array.device() != device) {
          throw new IllegalArgumentException(
              spec
                  + ": argument '"
                  + spec.params().get(i).name()
                  + "' is an array of "
                  + array.device()
                  + ", and this launch runs on "
                  + device
                  + ": copy it to this device first"
                  + " (toArray() there, upload(...) here)");
        }
        launch.arg(i, array.buffer());
      } else if (spec.params().get(i).isBuffer()) {
        throw new IllegalArgumentException(
            spec
                + ": argument '"
                + spec.params().get(i).name()
                + "' must be a device array here, not a Java array");
      } else {
        launch.arg(i, args[i]);
      }
    }
  }

  /**
   * Checks the launch against the bounds its module's proofs need, read once per kernel or group.
   */
  private static void checkBounds(Launch launch) {
    launch.checkBounds(KernelDescriptions.of(launch.spec()).bounds());
  }

  /**
   * Refuses one array (a Java array, or a device array) given for two buffers that the kernel may
   * not get one array for ({@link KernelDescriptions#aliasConflictsOf}): a write through one would
   * meet other invocations' accesses through the other, in an order no Java loop has. Identity
   * compares of the few pairs a module names, read once per kernel.
   */
  static void checkAliases(KernelSpec spec, Object[] args) {
    int[] pairs = KernelDescriptions.aliasConflictsOf(spec);
    for (int k = 0; k < pairs.length; k += 2) {
      if (args[pairs[k]] == args[pairs[k + 1]]) {
        String first = spec.params().get(pairs[k]).name();
        String second = spec.params().get(pairs[k + 1]).name();
        throw new IllegalArgumentException(
            spec
                + ": one array is passed as '"
                + first
                + "' and as '"
                + second
                + "'; the kernel writes one of them at elements that other invocations may reach through the other,"
                + " so with one array its result would depend on the order the device runs them in, where Java's loop"
                + " has one. Fix: pass a copy as '"
                + first
                + "' ("
                + first
                + ".clone(), or another device array), or"
                + " write the kernel so that each invocation reads and writes only its own element of both");
      }
    }
  }

  /** Checks arity and types. */
  static void checkArguments(KernelSpec spec, Object[] args) {
    List<KernelSpec.Param> params = spec.params();
    if (args.length != params.size()) {
      throw new IllegalArgumentException(
          spec + " takes " + params.size() + " arguments, got " + args.length);
    }
    for (int i = 0; i < args.length; i++) {
      KernelSpec.Param param = params.get(i);
      Object arg = args[i];
      boolean fits =
          switch (param.type()) {
            case FLOAT ->
                param.isBuffer()
                    ? arg instanceof FloatArray || arg instanceof float[]
                    : arg instanceof Float;
            case INT ->
                param.isBuffer()
                    ? arg instanceof IntArray || arg instanceof int[]
                    : arg instanceof Integer;
            case LONG ->
                param.isBuffer()
                    ? arg instanceof LongArray || arg instanceof long[]
                    : arg instanceof Long;
            case DOUBLE ->
                param.isBuffer()
                    ? arg instanceof DoubleArray || arg instanceof double[]
                    : arg instanceof Double;
            case BYTE -> arg instanceof ByteArray || arg instanceof byte[]; // buffers only
            case SHORT -> arg instanceof ShortArray || arg instanceof short[];
            case CHAR -> arg instanceof CharArray || arg instanceof char[];
            case BOOLEAN -> arg instanceof BooleanArray || arg instanceof boolean[];
          };
      if (!fits) {
        throw new IllegalArgumentException(
            spec
                + ": argument '"
                + param.name()
                + "' must be a "
                + param.type()
                + (param.isBuffer() ? " array" : "")
                + ", got "
                + (arg == null ? "null" : arg.getClass().getSimpleName()));
      }
    }
  }
}
