package dev.kiln.samples.startup;

import dev.kiln.samples.SaxpyKernels;
import dev.kiln.Device;

/** Run in a fresh JVM by {@link PipelineCacheTest}: runs a kernel and prints the cache bytes the device loaded. */
public final class CacheProbe {
  private CacheProbe() {}

  public static void main(String[] args) {
    try (Device device = Device.open("vulkan")) {
      SaxpyKernels.saxpy(device, 3, 2f, new float[3], new float[3]);
      System.out.println("loaded " + device.pipelineCacheLoadedBytes());
    }
  }
}
