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
 * {@link VulkanWarmup#driversWarmup()}: JDK 22 and later (the multi-release jar's
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

  /**
   * Asks the Vulkan loader in {@code library} to count the instance extensions, which loads its
   * drivers. A failure is left to the opening thread, which makes the same calls and reports it.
   *
   * @return what came of it, for the start-up trace
   */
  static String countExtensions(String library) {
    try {
      SymbolLookup loader = SymbolLookup.libraryLookup(library, Arena.global());
      MethodHandle count = Linker.nativeLinker().downcallHandle(
          loader.find("vkEnumerateInstanceExtensionProperties").orElseThrow(),
          FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment extensions = arena.allocate(ValueLayout.JAVA_INT);
        int result = (int) count.invokeExact(MemorySegment.NULL, extensions, MemorySegment.NULL);
        return result == 0
            ? "Vulkan drivers loaded (" + extensions.get(ValueLayout.JAVA_INT, 0) + " instance extensions)"
            : "Vulkan drivers: the loader answered " + result;
      }
    } catch (Throwable e) {
      return "Vulkan drivers: " + e;
    }
  }
}
