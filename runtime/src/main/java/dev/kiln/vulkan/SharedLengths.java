package dev.kiln.vulkan;

import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.SharedLength;
import dev.kiln.backend.Launch;
import java.util.ArrayList;
import java.util.List;

/**
 * The lengths a launch gives the workgroup arrays its kernel sizes by parameters ({@code
 * Gpu.sharedFloats(n)}), checked before anything runs: a negative one throws what Java's {@code new
 * float[n]} would, and the kernel's workgroup memory must fit the device's.
 */
final class SharedLengths {
  private SharedLengths() {}

  /**
   * The launch's value of each of {@code kernel}'s {@link SharedLength}s, in their order.
   *
   * @throws NegativeArraySizeException for a negative length
   * @throws IllegalArgumentException where the workgroup memory exceeds {@code device}'s limit
   */
  static List<Integer> of(Launch launch, KernelDescription kernel, PhysicalDevice device) {
    List<Integer> lengths = new ArrayList<>();
    long bytes = kernel.sharedBytes();
    StringBuilder sizes = new StringBuilder();
    for (SharedLength length : kernel.sharedLengths()) {
      int value = (int) launch.scalar(length.param());
      String param = launch.spec().params().get(length.param()).name();
      if (value < 0) {
        throw new NegativeArraySizeException(
            value
                + ": the length of a workgroup array of kernel "
                + launch.spec()
                + ", parameter '"
                + param
                + "' (checked before the launch; nothing ran)");
      }
      lengths.add(value);
      bytes += value * length.bytesPerElement();
      sizes.append(", ").append(param).append(" = ").append(value);
    }
    int limit = device.limits().maxSharedMemorySize();
    if (bytes > limit) {
      throw new IllegalArgumentException(
          launch.spec()
              + ": "
              + bytes
              + " bytes of workgroup memory with"
              + sizes.substring(1)
              + " exceed "
              + device.name()
              + "'s limit maxComputeSharedMemorySize = "
              + limit
              + ". Fix: launch it with smaller lengths");
    }
    return lengths;
  }
}
