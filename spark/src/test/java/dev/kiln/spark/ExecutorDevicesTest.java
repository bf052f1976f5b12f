package dev.kiln.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.resource.ResourceInformation;
import org.junit.jupiter.api.Test;

/**
 * The executor's devices: opened by the plugin for the addresses Spark gave, closed when the
 * executor stops, and what an executor says when an address names no device Kiln can open.
 */
class ExecutorDevicesTest {
  @Test
  void thePluginOpensADevicePerAddressAtStartAndClosesThemAtShutdown() {
    String before = System.getProperty(ExecutorDevices.SELECTOR);
    System.setProperty(ExecutorDevices.SELECTOR, "cpu");
    try {
      ResourceInformation gpus = new ResourceInformation(KilnPlugin.GPU, new String[] {"0", "1"});
      PluginContext context =
          (PluginContext)
              Proxy.newProxyInstance(
                  getClass().getClassLoader(),
                  new Class<?>[] {PluginContext.class},
                  (proxy, method, args) ->
                      switch (method.getName()) {
                        case "resources" -> Map.of(KilnPlugin.GPU, gpus);
                        default -> throw new UnsupportedOperationException(method.getName());
                      });
      ExecutorPlugin plugin = new KilnPlugin().executorPlugin();
      plugin.init(context, Map.of());
      Device first = ExecutorDevices.forAddress("0");
      Device second = ExecutorDevices.forAddress("1");
      assertNotSame(first, second, "a device per address");
      assertSame(first, ExecutorDevices.forAddress("0"), "opened once, not per task");
      plugin.shutdown();
      IllegalStateException closed =
          assertThrows(IllegalStateException.class, () -> first.floats(1));
      assertTrue(closed.getMessage().endsWith(" is closed"), closed.getMessage());
      assertThrows(IllegalStateException.class, () -> second.floats(1));
    } finally {
      ExecutorDevices.closeAll();
      if (before == null) {
        System.clearProperty(ExecutorDevices.SELECTOR);
      } else {
        System.setProperty(ExecutorDevices.SELECTOR, before);
      }
    }
  }

  @Test
  void anAddressBeyondKilnsGpusNamesTheAddressAndTheSelector() {
    IllegalStateException thrown =
        assertThrows(IllegalStateException.class, () -> ExecutorDevices.forAddress("97"));
    assertTrue(
        thrown
            .getMessage()
            .startsWith("GPU address '97' of this executor: cannot open Kiln device '#97' ("),
        thrown.getMessage());
    assertTrue(
        thrown
            .getMessage()
            .endsWith(
                "); set -Dkiln.spark.device=<selector> on the executors where the addresses"
                    + " are not Kiln's GPU ranks"),
        thrown.getMessage());
  }

  @Test
  void anAddressThatIsNoNumberSaysHowToMapIt() {
    IllegalStateException thrown =
        assertThrows(IllegalStateException.class, () -> ExecutorDevices.forAddress("GPU-5d3c"));
    assertEquals(
        "GPU address 'GPU-5d3c' is not a number, so it names no rank of Kiln's GPUs; set"
            + " -Dkiln.spark.device=<selector> on the executors",
        thrown.getMessage());
  }
}
