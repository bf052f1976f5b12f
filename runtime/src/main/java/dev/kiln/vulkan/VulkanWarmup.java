package dev.kiln.vulkan;

import dev.kiln.backend.StartupTrace;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Work of the first {@code Device.open()} started on other threads, so that it overlaps what the
 * opening thread does meanwhile. Measured on the H200 in fresh JVMs (PERFORMANCE.md, start-up), the
 * instance's creation waits for three independent things, each 100–180 ms:
 * <ol>
 *   <li>The Vulkan loader finding and loading the drivers, at the first Vulkan call. {@link
 *       #startDrivers()} makes that call (counting the instance extensions) through the FFM API
 *       ({@link DriverLoad}, JDK 22+), before LWJGL is loaded at all; the loader keeps the drivers
 *       loaded, so LWJGL's calls find them ready.
 *   <li>LWJGL's downcall bindings ({@code org.lwjgl.system.JNI}), which LWJGL generates on JDK 25
 *       when the first Vulkan function is looked up. {@link #startBindings()} initializes that class
 *       once LWJGL's core classes are up on the opening thread (starting earlier would initialize
 *       the core on two threads at once, which risks a deadlock between their initializers).
 *   <li>LWJGL loading the Vulkan loader, on the opening thread.
 * </ol>
 * Each is started once per JVM; a failure on those threads is left to the opening thread, which
 * does the same work again and reports it. With {@code -Dkiln.startupTrace=true} the trace lists what
 * each thread did and how long it took.
 */
final class VulkanWarmup {
  /** {@code -Dkiln.warmup=false} does all of it on the opening thread, as before the warmup existed. */
  private static final boolean ON = Boolean.parseBoolean(System.getProperty("kiln.warmup", "true"));
  private static final AtomicBoolean DRIVERS = new AtomicBoolean();
  private static final AtomicBoolean BINDINGS = new AtomicBoolean();

  private VulkanWarmup() {}

  /** Has the Vulkan loader load its drivers on another thread; before LWJGL is touched. */
  static void startDrivers() {
    String library = loaderName();
    if (ON && library != null && DriverLoad.available() && DRIVERS.compareAndSet(false, true)) {
      long start = StartupTrace.asideBegins();
      Thread.ofPlatform().daemon().name("kiln-vulkan-drivers")
          .start(() -> StartupTrace.meanwhile(DriverLoad.countExtensions(library), start));
    }
  }

  /** Has LWJGL generate its bindings on another thread; after LWJGL's core has initialized on this one. */
  static void startBindings() {
    if (ON && BINDINGS.compareAndSet(false, true)) {
      long start = StartupTrace.asideBegins();
      Thread.ofPlatform().daemon().name("kiln-lwjgl-bindings").start(() -> initializeBindings(start));
    }
  }

  /**
   * The Vulkan loader's library as LWJGL loads it ({@code -Dorg.lwjgl.vulkan.libname}, else the
   * platform's), or null where Kiln does not know it.
   */
  static String loaderName() {
    String named = System.getProperty("org.lwjgl.vulkan.libname");
    if (named != null) {
      return named;
    }
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    return os.contains("linux") ? "libvulkan.so.1" : os.contains("windows") ? "vulkan-1" : null;
  }

  private static void initializeBindings(long start) {
    String outcome;
    try {
      Class.forName("org.lwjgl.system.JNI", true, VulkanWarmup.class.getClassLoader());
      outcome = "LWJGL's bindings made";
    } catch (Throwable e) { // the thread that needs the bindings initializes them and reports what fails
      outcome = "LWJGL's bindings: " + e;
    }
    StartupTrace.meanwhile(outcome, start);
  }
}
