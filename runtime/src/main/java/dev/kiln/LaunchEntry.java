package dev.kiln;

import dev.kiln.abi.KernelSpec;
import dev.kiln.access.LaunchAccess;
import dev.kiln.backend.Launch;

/**
 * The package-private launch paths of {@link Device}, {@link Batch} and {@link DeviceSet}, which
 * generated launchers reach through {@link LaunchAccess}; {@code Device} installs it when it
 * initializes.
 */
final class LaunchEntry implements LaunchAccess.Launcher {

  @Override
  public void dispatch(Device device, Launch launch, Object[] args) {
    device.launches.onDevice(launch, args);
  }

  @Override
  public void run(Device device, Launch launch, Object[] args) {
    device.launches.onCopies(launch, args);
  }

  @Override
  public void record(Batch batch, Launch launch, Object[] args) {
    batch.record(launch, args);
  }

  @Override
  public void split(DeviceSet devices, KernelSpec spec, int count, Object[] args) {
    devices.run(spec, count, args);
  }

  @Override
  public void sharded(DeviceSet devices, KernelSpec spec, int count, Object[] args) {
    ShardedLaunch.run(devices, spec, count, args);
  }
}
