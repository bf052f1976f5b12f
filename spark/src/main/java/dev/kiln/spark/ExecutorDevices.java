package dev.kiln.spark;

import dev.kiln.Device;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;

/**
 * The devices of this executor JVM, shared by its tasks: one per GPU address Spark gave the
 * executor, and the best device for tasks that have none. Each is opened once, by {@link
 * KilnPlugin} when the executor starts or by the first task that asks, and closed by the plugin
 * when the executor stops.
 *
 * <p>A GPU address {@code N} is Kiln's hardware GPU of rank {@code N} ({@code Device.open("#N")}),
 * which for GPUs that are all alike is the Vulkan driver's order (expected to be {@code
 * nvidia-smi}'s). {@code -Dkiln.spark.device=<selector>} on the executors opens that selector for
 * every address instead ({@code cpu}, {@code vulkan}, a name fragment: see {@link
 * Device#open(String)}).
 */
public final class ExecutorDevices {
  /** The property whose selector replaces the address's rank. */
  static final String SELECTOR = "kiln.spark.device";

  /**
   * The open devices by GPU address; the key "" is the best device, for tasks without an address.
   */
  private static final Map<String, Device> OPEN = new LinkedHashMap<>();

  private ExecutorDevices() {}

  /**
   * The device of the calling task: that of its first GPU address, or the best device where Spark
   * gave it none (no GPU scheduling, local mode) or where it runs outside a task.
   *
   * @return the device, open until the executor stops
   */
  public static Device forTask() {
    return forAddress(address(TaskContext.get()));
  }

  /**
   * The calling task's first GPU address, or {@code ""} where it has none.
   *
   * @return the address
   */
  public static String taskAddress() {
    return address(TaskContext.get());
  }

  private static String address(TaskContext task) {
    if (task == null) {
      return "";
    }
    ResourceInformation gpus = task.resourcesJMap().get(KilnPlugin.GPU);
    return gpus == null || gpus.addresses().length == 0 ? "" : gpus.addresses()[0];
  }

  /** Opens the devices of {@code addresses} that are not open yet. */
  static void open(List<String> addresses) {
    addresses.forEach(ExecutorDevices::forAddress);
  }

  /**
   * The device for a GPU address ({@code ""}: the best device), opened on first use.
   *
   * @param address a GPU address Spark gave, or {@code ""}
   * @return the open device
   */
  static synchronized Device forAddress(String address) {
    Device device = OPEN.get(address);
    if (device == null) {
      String selector = selector(address);
      try {
        device = Device.open(selector);
      } catch (RuntimeException e) {
        throw new IllegalStateException(
            "GPU address '"
                + address
                + "' of this executor: cannot open Kiln device '"
                + selector
                + "' ("
                + e.getMessage()
                + "); set -D"
                + SELECTOR
                + "=<selector> on the executors where the"
                + " addresses are not Kiln's GPU ranks",
            e);
      }
      OPEN.put(address, device);
    }
    return device;
  }

  private static String selector(String address) {
    String forced = System.getProperty(SELECTOR, "");
    if (!forced.isEmpty()) {
      return forced;
    }
    if (address.isEmpty()) {
      return System.getProperty("kiln.device", "");
    }
    try {
      return "#" + Integer.parseInt(address);
    } catch (NumberFormatException e) {
      throw new IllegalStateException(
          "GPU address '"
              + address
              + "' is not a number, so it names no rank of Kiln's"
              + " GPUs; set -D"
              + SELECTOR
              + "=<selector> on the executors",
          e);
    }
  }

  /** Closes every open device; a later task opens its device again. */
  static synchronized void closeAll() {
    OPEN.values().forEach(Device::close);
    OPEN.clear();
  }
}
