package dev.kiln.vulkan;

import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.NumericType;
import dev.kiln.annotations.Access;
import dev.kiln.backend.KernelDescriptions;
import dev.kiln.backend.Launch;
import java.util.Arrays;

/**
 * The copies of a launch on Java arrays, all in the launch's one submission: each array goes to a
 * device buffer (mapped host-cached ones and small ones are written directly; others through a host
 * staging buffer and a copy recorded before the launch, {@link VulkanBuffer#movesThroughStaging}),
 * and each array the kernel may write comes back (through a copy recorded after it, where staged).
 * Buffers come from the device's scratch buffers and go back to them. A launch's {@link
 * Launch.Slice} moves part of an array only, at its own offsets (the kernel touches no other
 * element). One per recorder, reused; allocates nothing once its arrays are long enough.
 */
final class ArrayCopies {
  private final VulkanBackend backend;
  private Object[] arrays = new Object[8];
  private VulkanBuffer[] staging = new VulkanBuffer[8];

  ArrayCopies(VulkanBackend backend) {
    this.backend = backend;
  }

  /**
   * Puts each of {@code launch}'s Java arrays into a device buffer, which becomes the argument, and
   * records into {@code recorder} the copies from staging buffers.
   */
  void stageIn(Launch launch, LaunchRecorder recorder) {
    KernelSpec spec = launch.spec();
    int params = spec.params().size();
    if (arrays.length < params) {
      arrays = new Object[params];
      staging = new VulkanBuffer[params];
    }
    for (int param = 0; param < params; param++) {
      if (!spec.params().get(param).isBuffer()) {
        continue;
      }
      Object array = launch.arg(param);
      arrays[param] = array;
      NumericType type = NumericType.ofArray(array);
      int length = java.lang.reflect.Array.getLength(array);
      VulkanBuffer buffer = backend.scratchBuffer(type, length);
      launch.arg(param, buffer);
      Launch.Slice slice = launch.slice(param);
      int from = slice == null ? 0 : slice.from();
      int count = slice == null ? length : slice.to() - slice.from();
      if (buffer.isMapped() && !buffer.movesThroughStaging((long) count * type.bytes())) {
        buffer.write(array, from, from, count);
      } else {
        VulkanBuffer host = backend.stagingBuffer(type, length);
        staging[param] = host;
        host.write(array, from, from, count);
        recorder.copy(
            host,
            (long) from * type.bytes(),
            buffer,
            (long) from * type.bytes(),
            (long) count * type.bytes());
      }
    }
  }

  /** Records the copies of what the kernel may have written back to the staging buffers. */
  void recordCopiesBack(Launch launch, LaunchRecorder recorder) {
    KernelSpec spec = launch.spec();
    KernelDescription kernel = KernelDescriptions.of(spec);
    boolean first = true;
    for (int param = 0; param < spec.params().size(); param++) {
      if (staging[param] != null && comesBack(kernel, launch, param)) {
        if (first) {
          recorder.barrierBeforeCopies();
          first = false;
        }
        VulkanBuffer buffer = (VulkanBuffer) launch.arg(param);
        Launch.Slice slice = launch.slice(param);
        long bytes = buffer.type().bytes();
        long from = slice == null ? 0 : slice.from() * bytes;
        long size = slice == null ? buffer.length() * bytes : (slice.to() - slice.from()) * bytes;
        recorder.copy(buffer, from, staging[param], from, size);
      }
    }
  }

  /** Copies into the Java arrays what the kernel may have written; the submission has completed. */
  void copyBack(Launch launch) {
    KernelSpec spec = launch.spec();
    KernelDescription kernel = KernelDescriptions.of(spec);
    for (int param = 0; param < spec.params().size(); param++) {
      if (spec.params().get(param).isBuffer() && comesBack(kernel, launch, param)) {
        VulkanBuffer from =
            staging[param] != null ? staging[param] : (VulkanBuffer) launch.arg(param);
        Launch.Slice slice = launch.slice(param);
        if (slice == null) {
          from.read(arrays[param]);
        } else {
          from.read(arrays[param], slice.from(), slice.from(), slice.to() - slice.from());
        }
      }
    }
  }

  /**
   * Whether buffer parameter {@code param}'s array comes back: the kernel may write it, and its
   * slice says so.
   */
  private static boolean comesBack(KernelDescription kernel, Launch launch, int param) {
    Launch.Slice slice = launch.slice(param);
    return kernel.access(param) != Access.READ && (slice == null || slice.back());
  }

  /** Gives the buffers back and forgets the arrays; safe after a failure at any point. */
  void release(Launch launch) {
    for (int param = 0; param < launch.spec().params().size(); param++) {
      if (launch.arg(param) instanceof VulkanBuffer buffer) {
        buffer.close();
      }
      if (param < staging.length && staging[param] != null) {
        staging[param].close();
      }
    }
    Arrays.fill(arrays, null);
    Arrays.fill(staging, null);
  }
}
