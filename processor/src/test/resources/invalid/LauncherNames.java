package invalid;

import dev.kiln.annotations.Kernel;

/** Classes whose launchers would have the same name as another class. */
class Outer {
  static class B {
    @Kernel
    static void k(float[] d) {}
  }
}

class Outer_B { // ERROR: [kiln.kernel.launcherName]
  @Kernel
  static void k(float[] d) {}
}

class Mine { // ERROR: [kiln.kernel.launcherName]
  @Kernel
  static void k(float[] d) {}
}

class MineKernels {}
