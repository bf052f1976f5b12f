package dev.kiln.spark;

import java.util.List;
import java.util.Map;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;
import org.apache.spark.resource.ResourceInformation;

/**
 * Opens each executor's devices when the executor starts and closes them when it stops: {@code
 * spark.plugins=dev.kiln.spark.KilnPlugin}. An executor that Spark gave GPU addresses ({@code
 * spark.executor.resource.gpu.amount}) opens one device per address; one without opens none, and
 * its tasks open the best device when they first ask ({@link ExecutorDevices}).
 */
public final class KilnPlugin implements SparkPlugin {
  /** Spark's name of the GPU resource. */
  static final String GPU = "gpu";

  @Override
  public DriverPlugin driverPlugin() {
    return null; // the driver runs no kernels
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return new ExecutorPlugin() {
      @Override
      public void init(PluginContext context, Map<String, String> extraConf) {
        ResourceInformation gpus = context.resources().get(GPU);
        ExecutorDevices.open(gpus == null ? List.of() : List.of(gpus.addresses()));
      }

      @Override
      public void shutdown() {
        ExecutorDevices.closeAll();
      }
    };
  }
}
