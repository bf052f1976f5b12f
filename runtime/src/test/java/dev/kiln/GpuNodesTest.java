package dev.kiln;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which machines skip asking Vulkan for the best device: Linux ones without a GPU device node. */
class GpuNodesTest {
  @Test
  void aLinuxMachineWithoutGpuNodesHasNoGpu(@TempDir Path dev) throws IOException {
    Files.createDirectories(dev.resolve("dri"));
    Files.createFile(
        dev.resolve("dri/card0")); // a display-only node: no render node, no compute driver
    Files.createFile(dev.resolve("nvidiactl")); // NVIDIA's control node alone is not a GPU
    assertEquals(
        "this machine has no GPU device node (/dev/dri/renderD*, /dev/nvidia*, /dev/dxg), so no Vulkan"
            + " driver was loaded; a software Vulkan device runs only when named (-Dkiln.device=vulkan), and"
            + " -Dkiln.vulkanProbe=always asks Vulkan anyway",
        GpuNodes.absence(dev, "Linux", ""));
  }

  @Test
  void eachKindOfGpuNodeMeansVulkanIsAsked(@TempDir Path root) throws IOException {
    for (String node : new String[] {"dri/renderD128", "nvidia0", "dxg"}) {
      Path dev = Files.createDirectories(root.resolve(node.replace('/', '-')));
      Files.createDirectories(dev.resolve(node).getParent());
      Files.createFile(dev.resolve(node));
      assertNull(GpuNodes.absence(dev, "Linux", ""), node);
    }
  }

  @Test
  void otherSystemsAndTheProbePropertyAlwaysAskVulkan(@TempDir Path dev) {
    assertNull(GpuNodes.absence(dev, "Windows 11", ""));
    assertNull(GpuNodes.absence(dev, "Mac OS X", ""));
    assertNull(GpuNodes.absence(dev, "Linux", "always"));
  }
}
