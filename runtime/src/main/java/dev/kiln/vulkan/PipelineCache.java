package dev.kiln.vulkan;

import static org.lwjgl.vulkan.VK10.*;

import dev.kiln.backend.KilnLog;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkPipelineCacheCreateInfo;

/**
 * A Vulkan pipeline cache kept on disk between runs, one file per device and driver: {@code
 * pipelines-<pipelineCacheUUID>-<driverVersion>.bin} in {@code -Dkiln.pipelineCache} (default
 * {@code ~/.cache/kiln}). A file that cannot be read, or whose header names another device, is
 * ignored with a log line; the cache is written back when the device closes.
 */
final class PipelineCache {
  private static final int HEADER_BYTES = 32;

  private final Path file;
  private final long handle;
  private final long loadedBytes;

  private PipelineCache(Path file, long handle, long loadedBytes) {
    this.file = file;
    this.handle = handle;
    this.loadedBytes = loadedBytes;
  }

  static PipelineCache open(VkDevice device, PhysicalDevice physical) {
    Path directory =
        Path.of(
            System.getProperty(
                "kiln.pipelineCache",
                Path.of(System.getProperty("user.home"), ".cache", "kiln").toString()));
    Path file =
        directory.resolve(
            "pipelines-"
                + HexFormat.of().formatHex(physical.pipelineCacheUuid())
                + "-"
                + Integer.toUnsignedString(physical.driverVersion())
                + ".bin");
    byte[] data = read(file, physical);
    ByteBuffer initial =
        data.length == 0 ? null : MemoryUtil.memAlloc(data.length).put(data).flip();
    try (MemoryStack stack = MemoryStack.stackPush()) {
      LongBuffer cache = stack.mallocLong(1);
      Vk.check(
          vkCreatePipelineCache(
              device,
              VkPipelineCacheCreateInfo.calloc(stack).sType$Default().pInitialData(initial),
              null,
              cache),
          "vkCreatePipelineCache");
      return new PipelineCache(file, cache.get(0), data.length);
    } finally {
      if (initial != null) {
        MemoryUtil.memFree(initial);
      }
    }
  }

  /** The file's bytes if it is a cache of this device, else none. */
  private static byte[] read(Path file, PhysicalDevice physical) {
    if (!Files.isRegularFile(file)) {
      return new byte[0];
    }
    try {
      byte[] data = Files.readAllBytes(file);
      ByteBuffer header = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
      boolean fits =
          data.length >= HEADER_BYTES
              && header.getInt(0) >= HEADER_BYTES
              && header.getInt(4) == VK_PIPELINE_CACHE_HEADER_VERSION_ONE
              && header.getInt(8) == physical.vendorId()
              && header.getInt(12) == physical.deviceId()
              && ByteBuffer.wrap(data, 16, 16)
                  .equals(ByteBuffer.wrap(physical.pipelineCacheUuid()));
      if (!fits) {
        KilnLog.logger()
            .log(
                Level.INFO,
                "Ignoring pipeline cache {0}: not a cache of {1}",
                file,
                physical.name());
        return new byte[0];
      }
      return data;
    } catch (IOException e) {
      KilnLog.logger().log(Level.INFO, "Ignoring pipeline cache {0}: {1}", file, e.toString());
      return new byte[0];
    }
  }

  long handle() {
    return handle;
  }

  /** Bytes of cache loaded from disk when the device opened (0 if none was usable). */
  long loadedBytes() {
    return loadedBytes;
  }

  /** Writes the cache back (replacing the file atomically) and destroys it. */
  void close(VkDevice device) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      PointerBuffer size = stack.mallocPointer(1);
      if (vkGetPipelineCacheData(device, handle, size, null) == VK_SUCCESS && size.get(0) > 0) {
        ByteBuffer data = MemoryUtil.memAlloc((int) size.get(0));
        try {
          if (vkGetPipelineCacheData(device, handle, size, data) == VK_SUCCESS) {
            byte[] bytes = new byte[(int) size.get(0)];
            data.get(0, bytes);
            Files.createDirectories(file.getParent());
            Path temporary = Files.createTempFile(file.getParent(), "pipelines", ".tmp");
            Files.write(temporary, bytes);
            Files.move(
                temporary,
                file,
                StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
          }
        } catch (IOException e) {
          KilnLog.logger()
              .log(Level.INFO, "Cannot write pipeline cache {0}: {1}", file, e.toString());
        } finally {
          MemoryUtil.memFree(data);
        }
      }
    }
    vkDestroyPipelineCache(device, handle, null);
  }
}
