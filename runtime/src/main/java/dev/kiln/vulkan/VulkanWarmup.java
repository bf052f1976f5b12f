package dev.kiln.vulkan;

import dev.kiln.backend.StartupTrace;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Work of the first {@code Device.open()} started on other threads, so that it overlaps what the
 * opening thread does meanwhile. Measured on the H200 in fresh JVMs (PERFORMANCE.md, start-up), the
 * instance's creation waits for independent things, each 100–240 ms:
 *
 * <ol>
 *   <li>The Vulkan loader finding and loading the drivers, at the first Vulkan call. {@link
 *       #driversWarmup()} makes that call (counting the instance extensions) through the FFM API
 *       ({@link DriverLoad}, JDK 22+), once LWJGL's core native library is loaded; the loader keeps
 *       the drivers loaded, so LWJGL's calls find them ready.
 *   <li>LWJGL's downcall bindings ({@code org.lwjgl.system.JNI}), which LWJGL generates on JDK 25
 *       when the first Vulkan function is looked up. {@link #startBindings()} initializes that
 *       class once LWJGL's core classes are up on the opening thread (starting earlier would
 *       initialize the core on two threads at once, which risks a deadlock between their
 *       initializers).
 * </ol>
 *
 * Each is started once per JVM; a failure on those threads is left to the opening thread, which
 * does the same work again and reports it. With {@code -Dkiln.startupTrace=true} the trace lists
 * what each thread did and how long it took.
 *
 * <p>The opening thread loads LWJGL's core before the drivers thread starts, and waits for the
 * drivers ({@link #awaitDrivers()}, bounded) before LWJGL loads the Vulkan loader. LWJGL, loading a
 * library from the system's paths, asks for its path with {@code dl_iterate_phdr} and calls {@code
 * dlopen} from inside that callback; glibc holds its loaded-objects lock there, while a {@code
 * dlopen} on another thread (the Vulkan loader opening a driver) holds the load lock and wants that
 * one. The two threads deadlocked in the dynamic linker, unkillably but for SIGKILL: the start-ups
 * that hung (PERFORMANCE.md; native stacks in docs/bench/2026-12-01-hang). So no thread of Kiln's
 * is inside {@code dlopen} while LWJGL walks the loaded objects, and a driver that never finishes
 * loading costs the opening thread a bounded wait, not a {@code dlopen} that waits for ever.
 */
final class VulkanWarmup {
  /**
   * {@code -Dkiln.warmup=false} does all of it on the opening thread, as before the warmup existed.
   */
  private static final boolean ON = Boolean.parseBoolean(System.getProperty("kiln.warmup", "true"));

  /**
   * {@code -Dkiln.driverTimeout=S}: how many seconds the opening thread waits for the loader to
   * load its drivers before it gives up on Vulkan (a driver that hangs while it initializes).
   */
  private static final long DRIVER_TIMEOUT_SECONDS = Long.getLong("kiln.driverTimeout", 60);

  private static final AtomicBoolean DRIVERS = new AtomicBoolean();

  /** Counted down when the drivers thread has finished, or never started. */
  private static final CountDownLatch DRIVERS_DONE = new CountDownLatch(1);

  /** Whether a drivers thread was started; written before {@link #DRIVERS_DONE} is counted down. */
  private static volatile boolean DRIVERS_STARTED;

  private static final AtomicBoolean BINDINGS = new AtomicBoolean();

  private VulkanWarmup() {}

  /**
   * What has the Vulkan loader load its drivers on another thread, to run once LWJGL's core is
   * loaded. Whether Kiln may use the FFM API is decided now, before LWJGL's first native call: on a
   * JDK that warns at the first restricted call of a module without native access, LWJGL's {@code
   * System.load} would enable it for the class path, where Kiln may be too.
   */
  static Runnable driversWarmup() {
    String library = loaderName();
    if (!DRIVERS.compareAndSet(false, true)) {
      return () -> {};
    }
    if (!ON || library == null || !DriverLoad.available()) {
      DRIVERS_DONE.countDown();
      return () -> {};
    }
    return () -> {
      DRIVERS_STARTED = true;
      long start = StartupTrace.asideBegins();
      Thread.ofPlatform()
          .daemon()
          .name("kiln-vulkan-drivers")
          .start(
              () -> {
                try {
                  StartupTrace.meanwhile(DriverLoad.countExtensions(library), start);
                } finally {
                  DRIVERS_DONE.countDown();
                }
              });
    };
  }

  /**
   * Waits until the drivers thread has finished, or until it is known that none runs: before the
   * opening thread lets LWJGL load the Vulkan loader, so that no two threads of Kiln's are in the
   * dynamic linker at once (see above).
   *
   * @return whether a drivers thread ran (and so was waited for)
   * @throws VulkanUnavailableException after {@code kiln.driverTimeout} seconds (60 by default)
   */
  static boolean awaitDrivers() throws VulkanUnavailableException {
    boolean done;
    try {
      done = DRIVERS_DONE.await(DRIVER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new VulkanUnavailableException(
          "interrupted while the Vulkan loader loaded its drivers", e);
    }
    if (!done) {
      throw new VulkanUnavailableException(
          "the Vulkan loader ("
              + loaderName()
              + ") has not finished loading its"
              + " drivers after "
              + DRIVER_TIMEOUT_SECONDS
              + " s: a driver hangs while it initializes; -Dkiln.driverTimeout=S"
              + " waits S seconds",
          null);
    }
    return DRIVERS_STARTED;
  }

  /**
   * Has LWJGL generate its bindings on another thread; after LWJGL's core has initialized on this
   * one.
   */
  static void startBindings() {
    if (ON && BINDINGS.compareAndSet(false, true)) {
      long start = StartupTrace.asideBegins();
      Thread.ofPlatform()
          .daemon()
          .name("kiln-lwjgl-bindings")
          .start(() -> initializeBindings(start));
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
    } catch (
        Throwable e) { // the thread that needs the bindings initializes them and reports what fails
      outcome = "LWJGL's bindings: " + e;
    }
    StartupTrace.meanwhile(outcome, start);
  }
}
