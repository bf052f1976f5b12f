package invalid;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;

/** Helpers each inlining the last twice: the kernel's module would be megabytes. */
class ModuleSize {
  static int h0(int x) {
    return x * 3 + 1;
  }

  static int h1(int x) {
    return h0(x) + h0(x ^ 1);
  }

  static int h2(int x) {
    return h1(x) + h1(x ^ 2);
  }

  static int h3(int x) {
    return h2(x) + h2(x ^ 3);
  }

  static int h4(int x) {
    return h3(x) + h3(x ^ 4);
  }

  static int h5(int x) {
    return h4(x) + h4(x ^ 5);
  }

  static int h6(int x) {
    return h5(x) + h5(x ^ 6);
  }

  static int h7(int x) {
    return h6(x) + h6(x ^ 7);
  }

  static int h8(int x) {
    return h7(x) + h7(x ^ 8);
  }

  static int h9(int x) {
    return h8(x) + h8(x ^ 9);
  }

  static int h10(int x) {
    return h9(x) + h9(x ^ 10);
  }

  static int h11(int x) {
    return h10(x) + h10(x ^ 11);
  }

  @Kernel
  static void huge(int[] d) { // ERROR: [kiln.kernel.moduleSize]
    int i = Gpu.globalId(0);
    if (i < d.length) {
      d[i] = h11(d[i]);
    }
  }
}
