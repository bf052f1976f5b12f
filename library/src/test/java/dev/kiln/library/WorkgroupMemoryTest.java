package dev.kiln.library;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.abi.DescriptionCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The workgroup memory the library's kernels declare: within the 16 KiB that Vulkan promises
 * ({@code maxComputeSharedMemorySize}; a device with no more refuses a kernel past it at its first
 * launch), but for the GEMMs' blocks, which stay within the 48 KiB that NVIDIA's, AMD's and Intel's
 * drivers give (the tensor-core kernels run only where cooperative matrices are).
 */
class WorkgroupMemoryTest {
  private static final long VULKAN_LEAST = 16 * 1024;
  private static final long DESKTOP_LEAST = 48 * 1024;

  @Test
  void everyKernelFitsTheWorkgroupMemoryVulkanPromises() throws Exception {
    Path classes =
        Path.of(GemvKernels.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .resolve("dev/kiln/library");
    Map<String, Long> over = new TreeMap<>();
    List<Path> descriptions;
    try (Stream<Path> files = Files.list(classes)) {
      descriptions = files.filter(f -> f.toString().endsWith(".kiln")).sorted().toList();
    }
    for (Path file : descriptions) {
      long bytes = DescriptionCodec.read(Files.readAllBytes(file)).sharedBytes();
      String kernel = file.getFileName().toString().replace(".kiln", "");
      if (bytes > VULKAN_LEAST) {
        over.put(kernel, bytes);
      }
      assertTrue(bytes <= DESKTOP_LEAST, kernel + " declares " + bytes + " bytes");
    }
    assertTrue(descriptions.size() > 40, "only " + descriptions.size() + " kernel descriptions");
    assertEquals(
        List.of(
            "GemmKernels.bfloats",
            "GemmKernels.floats",
            "GemmKernels.floatsInQuads",
            "GemmKernels.halves",
            "TileGemmKernels.bfloats",
            "TileGemmKernels.bfloatsInOctets",
            "TileGemmKernels.bfloatsSlicesInOctets",
            "TileGemmKernels.halves",
            "TileGemmKernels.halvesInOctets",
            "TileGemmKernels.halvesSlicesInOctets"),
        List.copyOf(over.keySet()),
        "kernels past 16 KiB of workgroup memory: " + over);
  }
}
