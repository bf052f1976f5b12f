/**
 * An application that is a named module. It requires the Kiln runtime only: it neither reads
 * {@code java.compiler} (so launchers come without {@code @Generated}) nor exports or opens its
 * kernels' package to Kiln, which reads their SPIR-V and finds their CPU twins through the
 * launchers' lookups.
 */
module com.example.modular {
  requires dev.kiln.runtime;
}
