package dev.kiln.internal;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.DeviceSet;
import dev.kiln.Grid;
import dev.kiln.abi.KernelSpec;
import dev.kiln.access.LaunchAccess;
import java.lang.invoke.MethodHandles;

/**
 * The untyped launch entry points that generated launchers call: a {@link KernelSpec} with its
 * arguments as objects (device arrays or Java arrays, and boxed scalars), sized by one count or
 * grid, or by one per arm of a group. Not for user code: call the launcher's typed methods, which
 * check nothing less and box nothing more.
 */
public final class Dispatch {
  /**
   * Device's entry points: initializing {@code Device} installs them, so they are there once this
   * class is.
   */
  private static final LaunchAccess.Launcher LAUNCHER = installed();

  private Dispatch() {}

  private static LaunchAccess.Launcher installed() {
    try {
      MethodHandles.lookup().ensureInitialized(Device.class);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
    return LaunchAccess.launcher();
  }

  /**
   * Runs {@code spec} for {@code count} invocations along x (every arm of a group as many) on
   * device arrays, and waits.
   *
   * @param device the device
   * @param spec the kernel or group
   * @param count invocations along x
   * @param args the kernel's arguments in parameter order
   */
  public static void dispatch(Device device, KernelSpec spec, int count, Object... args) {
    LAUNCHER.dispatch(device, Launches.line(spec, count), args);
  }

  /**
   * Runs {@code spec} over {@code grid} (every arm of a group over it) on device arrays, and waits.
   *
   * @param device the device
   * @param spec the kernel or group
   * @param grid the invocations along each axis
   * @param args the kernel's arguments in parameter order
   */
  public static void dispatch(Device device, KernelSpec spec, Grid grid, Object... args) {
    LAUNCHER.dispatch(device, Launches.same(spec, grid), args);
  }

  /**
   * Runs the group {@code spec} with arm k over {@code counts[k]} invocations along x, on device
   * arrays.
   *
   * @param device the device
   * @param spec the kernel or group
   * @param counts invocations along x, one count per arm
   * @param args the kernel's arguments in parameter order
   */
  public static void dispatch(Device device, KernelSpec spec, int[] counts, Object... args) {
    LAUNCHER.dispatch(device, Launches.lines(spec, counts), args);
  }

  /**
   * Runs the group {@code spec} with arm k over {@code grids[k]}, on device arrays.
   *
   * @param device the device
   * @param spec the kernel or group
   * @param grids one grid per arm
   * @param args the kernel's arguments in parameter order
   */
  public static void dispatch(Device device, KernelSpec spec, Grid[] grids, Object... args) {
    LAUNCHER.dispatch(device, Launches.grids(spec, grids), args);
  }

  /**
   * Runs {@code spec} for {@code count} invocations along x on Java arrays: copies them to the
   * device, runs, and copies back every array the kernel may write.
   *
   * @param device the device
   * @param spec the kernel or group
   * @param count invocations along x
   * @param args the kernel's arguments in parameter order
   */
  public static void run(Device device, KernelSpec spec, int count, Object... args) {
    LAUNCHER.run(device, Launches.line(spec, count), args);
  }

  /**
   * Runs {@code spec} for {@code count} invocations along x (every arm of a group as many) on Java
   * arrays, split across {@code devices} ({@link DeviceSet}), and waits.
   *
   * @param devices the devices
   * @param spec the kernel or group
   * @param count invocations along x
   * @param args the kernel's arguments in parameter order
   */
  public static void run(DeviceSet devices, KernelSpec spec, int count, Object... args) {
    LAUNCHER.split(devices, spec, count, args);
  }

  /**
   * Runs {@code spec} for {@code count} invocations along x (every arm of a group as many) on
   * sharded arrays ({@link dev.kiln.ShardedArray}) of {@code devices}, each device the ids of its
   * shards, and waits.
   *
   * @param devices the devices
   * @param spec the kernel or group
   * @param count invocations along x
   * @param args the kernel's arguments in parameter order
   */
  public static void runSharded(DeviceSet devices, KernelSpec spec, int count, Object... args) {
    LAUNCHER.sharded(devices, spec, count, args);
  }

  /**
   * Runs {@code spec} over {@code grid} on Java arrays, as {@link #run(Device, KernelSpec, int,
   * Object...)}.
   *
   * @param device the device
   * @param spec the kernel or group
   * @param grid the invocations along each axis
   * @param args the kernel's arguments in parameter order
   */
  public static void run(Device device, KernelSpec spec, Grid grid, Object... args) {
    LAUNCHER.run(device, Launches.same(spec, grid), args);
  }

  /**
   * Runs the group {@code spec} with arm k over {@code counts[k]} invocations along x, on Java
   * arrays.
   *
   * @param device the device
   * @param spec the kernel or group
   * @param counts invocations along x, one count per arm
   * @param args the kernel's arguments in parameter order
   */
  public static void run(Device device, KernelSpec spec, int[] counts, Object... args) {
    LAUNCHER.run(device, Launches.lines(spec, counts), args);
  }

  /**
   * Runs the group {@code spec} with arm k over {@code grids[k]}, on Java arrays.
   *
   * @param device the device
   * @param spec the kernel or group
   * @param grids one grid per arm
   * @param args the kernel's arguments in parameter order
   */
  public static void run(Device device, KernelSpec spec, Grid[] grids, Object... args) {
    LAUNCHER.run(device, Launches.grids(spec, grids), args);
  }

  /**
   * Records a launch of {@code spec} for {@code count} invocations along x into {@code batch}, on
   * device arrays.
   *
   * @param batch the batch to record into
   * @param spec the kernel or group
   * @param count invocations along x
   * @param args the kernel's arguments in parameter order
   */
  public static void record(Batch batch, KernelSpec spec, int count, Object... args) {
    LAUNCHER.record(batch, Launches.line(spec, count), args);
  }

  /**
   * Records a launch of {@code spec} over {@code grid} into {@code batch}, on device arrays.
   *
   * @param batch the batch to record into
   * @param spec the kernel or group
   * @param grid the invocations along each axis
   * @param args the kernel's arguments in parameter order
   */
  public static void record(Batch batch, KernelSpec spec, Grid grid, Object... args) {
    LAUNCHER.record(batch, Launches.same(spec, grid), args);
  }

  /**
   * Records a launch of the group {@code spec} with arm k over {@code counts[k]} invocations along
   * x.
   *
   * @param batch the batch to record into
   * @param spec the kernel or group
   * @param counts invocations along x, one count per arm
   * @param args the kernel's arguments in parameter order
   */
  public static void record(Batch batch, KernelSpec spec, int[] counts, Object... args) {
    LAUNCHER.record(batch, Launches.lines(spec, counts), args);
  }

  /**
   * Records a launch of the group {@code spec} with arm k over {@code grids[k]}.
   *
   * @param batch the batch to record into
   * @param spec the kernel or group
   * @param grids one grid per arm
   * @param args the kernel's arguments in parameter order
   */
  public static void record(Batch batch, KernelSpec spec, Grid[] grids, Object... args) {
    LAUNCHER.record(batch, Launches.grids(spec, grids), args);
  }
}
