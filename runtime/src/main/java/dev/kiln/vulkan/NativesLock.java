package dev.kiln.vulkan;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Serializes the loading of LWJGL's native libraries among the JVMs of one user on one machine, and
 * among the threads of this one. LWJGL extracts each library from its jar into one shared folder
 * and loads it from there; a JVM that found the file half-written wrote it again while another had
 * it mapped, and that one died of SIGBUS in the dynamic linker (8 JVMs started at once on a fresh
 * machine: 5 of 48 here, 4 of 1,056 on the H200 machine; PERFORMANCE.md). The lock is a file in the
 * temporary folder; where it cannot be had (a read-only folder, say), the libraries load without
 * it.
 */
final class NativesLock {
  private static final Object IN_THIS_JVM = new Object();
  private static final Path FILE =
      Path.of(
          System.getProperty("java.io.tmpdir"),
          "kiln-lwjgl-natives-" + System.getProperty("user.name", "user") + ".lock");

  private NativesLock() {}

  /** Work that loads native libraries. */
  interface Load {
    void run() throws VulkanUnavailableException;
  }

  /** Runs {@code load} holding the lock. */
  static void around(Load load) throws VulkanUnavailableException {
    synchronized (IN_THIS_JVM) {
      FileChannel channel = lockedOrNull();
      try {
        load.run();
      } finally {
        if (channel != null) {
          try {
            channel.close(); // and so the lock released
          } catch (IOException ignored) { // the lock goes with the channel all the same
          }
        }
      }
    }
  }

  /**
   * The lock file's channel, locked; null where it cannot be had: the libraries load unguarded
   * then.
   */
  private static FileChannel lockedOrNull() {
    FileChannel channel = null;
    try {
      channel = FileChannel.open(FILE, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      channel.lock();
      return channel;
    } catch (IOException | RuntimeException unavailable) {
      if (channel != null) {
        try {
          channel.close();
        } catch (IOException ignored) { // it was never locked
        }
      }
      return null;
    }
  }
}
