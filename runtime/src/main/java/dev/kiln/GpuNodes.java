package dev.kiln;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a Linux machine can have a hardware GPU for Vulkan, asked of its device nodes before any
 * driver is loaded: every hardware driver opens one ({@code /dev/dri/renderD*} for Mesa's and
 * AMD's, {@code /dev/nvidia*} for NVIDIA's, {@code /dev/dxg} under WSL). Where there is none, the
 * best device is the CPU backend without asking Vulkan: with Mesa installed, the loader would load
 * every driver, lavapipe's LLVM among them, for about a second, to find only a software device,
 * which {@code Device.open()} does not take unless named. Elsewhere than Linux, and with {@code
 * -Dkiln.vulkanProbe=always} (a GPU behind another node), Vulkan is always asked.
 */
final class GpuNodes {
  private GpuNodes() {}

  /** Why there can be no hardware GPU here, or null where there may be one. */
  static String absence() {
    return absence(
        Path.of("/dev"),
        System.getProperty("os.name", ""),
        System.getProperty("kiln.vulkanProbe", ""));
  }

  /** {@link #absence()} for the device nodes under {@code dev}, on the system {@code os} named. */
  static String absence(Path dev, String os, String probe) {
    if (!os.startsWith("Linux") || probe.equals("always")) {
      return null;
    }
    if (any(dev.resolve("dri"), "renderD*")
        || any(dev, "nvidia[0-9]*")
        || Files.exists(dev.resolve("dxg"))) {
      return null;
    }
    return "this machine has no GPU device node (/dev/dri/renderD*, /dev/nvidia*, /dev/dxg), so no Vulkan driver was"
        + " loaded; a software Vulkan device runs only when named (-Dkiln.device=vulkan), and -Dkiln.vulkanProbe=always"
        + " asks Vulkan anyway";
  }

  private static boolean any(Path directory, String glob) {
    if (!Files.isDirectory(directory)) {
      return false;
    }
    try (DirectoryStream<Path> nodes = Files.newDirectoryStream(directory, glob)) {
      return nodes.iterator().hasNext();
    } catch (IOException | SecurityException e) {
      return true; // cannot tell: ask Vulkan
    }
  }
}
