/**
 * Kiln's runtime: {@link dev.kiln.Device}, device arrays, batches and the {@link dev.kiln.Gpu}
 * intrinsics kernels call, over a Vulkan backend (LWJGL and VMA) and a Java CPU backend. {@code
 * dev.kiln.internal} is for the launchers the Kiln processor generates, not for user code.
 */
module dev.kiln.runtime {
  requires transitive dev.kiln.annotations;
  requires java.management; // the start-up trace's JVM uptime
  requires jdk.jfr;
  requires org.lwjgl;
  requires org.lwjgl.vulkan;
  requires org.lwjgl.vma;
  requires static org.lwjgl.spvc; // SPIR-V enumerants, inlined constants
  // the native libraries: a module needs reading to be resolved, on the module path, at all
  requires org.lwjgl.natives;
  requires org.lwjgl.vma.natives;

  exports dev.kiln;
  exports dev.kiln.matrix;
  exports dev.kiln.internal;
}
