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
  static void byteScalar(byte[] pixels, byte level) {} // ERROR: [kiln.kernel.parameterType]

  @Kernel
  static void booleanScalar(boolean[] flags, boolean on) {} // ERROR: [kiln.kernel.parameterType]

  @Kernel
  static void annotatedScalar(@Buffer(Access.READ) float s) {} // ERROR: [kiln.kernel.parameterType]

  @Kernel(workgroup = {})
  static void noWorkgroup(float[] x) {} // ERROR: [kiln.kernel.workgroup]

  @Kernel(workgroup = {64, 0})
  static void zeroWorkgroup(float[] x) {} // ERROR: [kiln.kernel.workgroup]

  @Kernel(workgroup = {64, 32})
  static void hugeWorkgroup(float[] x) {} // ERROR: [kiln.kernel.workgroup]

  @Kernel(workgroup = {1 << 21, 1 << 21, 1 << 22})
  static void wrappingWorkgroup(float[] x) {} // ERROR: [kiln.kernel.workgroup]

  @Kernel
  static native void nativeKernel(float[] x); // ERROR: [kiln.kernel.noBody]

  @Kernel
  static void throwsChecked(float[] x) throws java.io.IOException {} // ERROR: [kiln.kernel.throws]

  @Kernel
  static void tooManyBuffers(float[] a0, float[] a1, float[] a2, float[] a3, float[] a4, float[] a5, float[] a6, float[] a7, float[] a8, float[] a9, float[] a10, float[] a11, float[] a12, float[] a13, float[] a14, float[] a15, float[] a16, float[] a17, float[] a18, float[] a19, float[] a20, float[] a21, float[] a22, float[] a23, float[] a24, float[] a25, float[] a26, float[] a27, float[] a28, float[] a29, float[] a30, float[] a31, float[] a32, float[] a33, float[] a34, float[] a35, float[] a36, float[] a37, float[] a38, float[] a39, float[] a40, float[] a41, float[] a42, float[] a43, float[] a44, float[] a45, float[] a46, float[] a47, float[] a48, float[] a49, float[] a50, float[] a51, float[] a52, float[] a53, float[] a54, float[] a55, float[] a56, float[] a57, float[] a58, float[] a59, float[] a60, float[] a61, float[] a62, float[] a63, float[] a64, float[] a65, float[] a66, float[] a67, float[] a68, float[] a69, float[] a70, float[] a71, float[] a72, float[] a73, float[] a74, float[] a75, float[] a76, float[] a77, float[] a78, float[] a79, float[] a80, float[] a81, float[] a82, float[] a83, float[] a84, float[] a85, float[] a86, float[] a87, float[] a88, float[] a89, float[] a90, float[] a91, float[] a92, float[] a93, float[] a94, float[] a95, float[] a96, float[] a97, float[] a98, float[] a99, float[] a100, float[] a101, float[] a102, float[] a103, float[] a104, float[] a105, float[] a106, float[] a107, float[] a108, float[] a109, float[] a110, float[] a111, float[] a112, float[] a113, float[] a114, float[] a115, float[] a116, float[] a117, float[] a118, float[] a119, float[] a120, float[] a121, float[] a122, float[] a123, float[] a124, float[] a125, float[] a126, float[] a127, float[] a128, float[] a129, float[] a130, float[] a131, float[] a132, float[] a133, float[] a134, float[] a135, float[] a136, float[] a137, float[] a138, float[] a139, float[] a140, float[] a141, float[] a142, float[] a143, float[] a144, float[] a145, float[] a146, float[] a147, float[] a148, float[] a149, float[] a150, float[] a151, float[] a152, float[] a153, float[] a154, float[] a155, float[] a156, float[] a157, float[] a158, float[] a159, float[] a160, float[] a161, float[] a162, float[] a163, float[] a164, float[] a165, float[] a166, float[] a167, float[] a168, float[] a169, float[] a170, float[] a171, float[] a172, float[] a173, float[] a174, float[] a175, float[] a176, float[] a177, float[] a178, float[] a179, float[] a180, float[] a181, float[] a182, float[] a183, float[] a184, float[] a185, float[] a186, float[] a187, float[] a188, float[] a189, float[] a190, float[] a191, float[] a192, float[] a193, float[] a194, float[] a195, float[] a196, float[] a197, float[] a198, float[] a199, float[] a200, float[] a201, float[] a202, float[] a203, float[] a204, float[] a205, float[] a206, float[] a207, float[] a208, float[] a209, float[] a210, float[] a211, float[] a212, float[] a213, float[] a214, float[] a215, float[] a216, float[] a217, float[] a218, float[] a219, float[] a220, float[] a221, float[] a222, float[] a223, float[] a224, float[] a225, float[] a226, float[] a227, float[] a228, float[] a229, float[] a230, float[] a231, float[] a232, float[] a233, float[] a234, float[] a235, float[] a236, float[] a237, float[] a238, float[] a239, float[] a240, float[] a241, float[] a242, float[] a243, float[] a244, float[] a245, float[] a246, float[] a247, float[] a248, float[] a249, float[] a250, float[] a251, float[] a252, float[] a253) {} // ERROR: [kiln.kernel.parameters]

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
