package dev.kiln.vulkan;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The first Vulkan call, made through the FFM API without LWJGL, for
 * {@link VulkanWarmup#startDrivers()}: JDK 22 and later (the multi-release jar's
 * {@code META-INF/versions/22}).
 */
final class DriverLoad {
  private DriverLoad() {}

  /**
   * Whether {@link #countExtensions} calls: where Kiln may use restricted FFM methods without a
   * warning ({@code --enable-native-access} names its module, or {@code ALL-UNNAMED} on the class
   * path).
   */
  static boolean available() {
    return DriverLoad.class.getModule().isNativeAccessEnabled();
  }

  /** Asks the Vulkan loader in {@code library} to count the instance extensions, which loads its drivers. */
  static void countExtensions(String library) {
    try {
      SymbolLookup loader = SymbolLookup.libraryLookup(library, Arena.global());
      MethodHandle count = Linker.nativeLinker().downcallHandle(
          loader.find("vkEnumerateInstanceExtensionProperties").orElseThrow(),
          FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
      try (Arena arena = Arena.ofConfined()) {
        int result = (int) count.invokeExact(MemorySegment.NULL, arena.allocate(ValueLayout.JAVA_INT),
            MemorySegment.NULL);
      }
    } catch (Throwable e) {
      // no loader, or it failed: the opening thread finds out and says so
    }
  }
}
