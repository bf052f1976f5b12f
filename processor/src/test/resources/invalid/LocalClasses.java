package test;

import dev.kiln.annotations.Kernel;

public final class LocalClasses {
  void method() {
    class Local {
      @Kernel
      static void inLocalClass(float[] x) {} // ERROR: [kiln.kernel.enclosing]
    }
    Object anonymous = new Object() {
      @Kernel
      static void inAnonymousClass(float[] x) {} // ERROR: [kiln.kernel.enclosing]
    };
  }
}
