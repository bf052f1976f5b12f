package test;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;

public final class Signatures {
  @Kernel
  void instanceKernel(float[] x) {} // ERROR: [kiln.kernel.notStatic]

  @Kernel
  static int returnsValue(float[] x) { // ERROR: [kiln.kernel.notVoid]
    return 0;
  }

  @Kernel
  private static void hidden(float[] x) {} // ERROR: [kiln.kernel.private]

  @Kernel
  static <T> void generic(float[] x) {} // ERROR: [kiln.kernel.generic]

  @Kernel
  static void strings(String s) {} // ERROR: [kiln.kernel.parameterType]

  @Kernel
  static void chars(char[] d) {} // ERROR: [kiln.kernel.parameterType]

  @Kernel
  static void booleanBuffer(boolean[] flags) {} // ERROR: [kiln.kernel.parameterType]

  @Kernel
  static void annotatedScalar(@Buffer(Access.READ) float s) {} // ERROR: [kiln.kernel.parameterType]

  @Kernel(workgroup = {})
  static void noWorkgroup(float[] x) {} // ERROR: [kiln.kernel.workgroup]

  @Kernel(workgroup = {64, 0})
  static void zeroWorkgroup(float[] x) {} // ERROR: [kiln.kernel.workgroup]

  @Kernel(workgroup = {64, 32})
  static void hugeWorkgroup(float[] x) {} // ERROR: [kiln.kernel.workgroup]

  @Kernel
  static void tooManyScalars(float[] x, int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7, int a8, // ERROR: [kiln.kernel.pushConstants]
      int a9, int a10, int a11, int a12, int a13, int a14, int a15, int a16, int a17, int a18, int a19, int a20,
      int a21, int a22, int a23, int a24, int a25, int a26, int a27, int a28, int a29, int a30) {}

  @Kernel
  static void twice(float[] x) {}

  @Kernel
  static void twice(int[] x) {} // ERROR: [kiln.kernel.duplicate]

  private static final class Private {
    @Kernel
    static void inPrivateClass(float[] x) {} // ERROR: [kiln.kernel.enclosing]
  }
}
