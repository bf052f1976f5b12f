package dev.kiln.access;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.DeviceSet;
import dev.kiln.abi.KernelSpec;
import dev.kiln.backend.Launch;

/**
 * Hands the launch entry points of {@link Device} and {@link Batch} to {@link
 * dev.kiln.internal.Dispatch}, which generated launchers call, without making them methods of the
 * public API (the JDK's {@code SharedSecrets} pattern). {@code Device} installs them when it
 * initializes; the package is not exported.
 */
public final class LaunchAccess {
  /** A device's and a batch's launches on checked grids, with their arguments unchecked. */
  public interface Launcher {
    /** Runs {@code launch} on device arrays and boxed scalars, and waits for it. */
    void dispatch(Device device, Launch launch, Object[] args);

    /**
     * Runs {@code launch} on copies of Java arrays and boxed scalars, copying back what it may
     * write.
     */
    void run(Device device, Launch launch, Object[] args);

    /** Records {@code launch} on device arrays and boxed scalars into {@code batch}. */
    void record(Batch batch, Launch launch, Object[] args);

    /**
     * Runs {@code spec} for {@code count} ids along x on Java arrays and boxed scalars, split
     * across {@code devices}.
     */
    void split(DeviceSet devices, KernelSpec spec, int count, Object[] args);

    /**
     * Runs {@code spec} for {@code count} ids along x on sharded arrays and boxed scalars, each
     * device of {@code devices} the ids of its shards.
     */
    void sharded(DeviceSet devices, KernelSpec spec, int count, Object[] args);
  }

  private static Launcher
      launcher; // written by Device's initializer, read once Device is initialized

  private LaunchAccess() {}

  /** Called once, by {@code Device}'s static initializer. */
  public static void install(Launcher entry) {
    if (launcher != null) {
      throw new IllegalStateException("the launcher is installed already");
    }
    launcher = entry;
  }

  /** The entry points, once {@code Device} has initialized (which {@code Dispatch} ensures). */
  public static Launcher launcher() {
    return launcher;
  }
}
