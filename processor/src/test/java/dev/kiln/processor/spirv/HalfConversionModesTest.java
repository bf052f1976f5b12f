package dev.kiln.processor.spirv;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.abi.LaunchAbi;
import dev.kiln.processor.Kernels;
import dev.kiln.processor.SpirvTools;
import org.junit.jupiter.api.Test;

/**
 * {@code Gpu.float16ToFloat} converts with the device's instruction under a specialization
 * constant, and only a module that does asks the driver to keep binary16 subnormals; {@code
 * Float.float16ToFloat} stays integer operations, asking nothing of it.
 */
class HalfConversionModesTest {
  private static final String KEEPS_HALF_SUBNORMALS = "OpExecutionMode %main DenormPreserve 16";

  @Test
  void onlyTheDevicesConversionAsksToKeepHalfSubnormals() {
    SpirvTools.requireDisassembler();
    Compilation compilation =
        Kernels.compile(
            JavaFileObjects.forSourceLines(
                "test.Halves",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Halves {",
                "  @Kernel(workgroup = 64)",
                "  static void forArithmetic(short[] in, float[] out) {",
                "    int i = Gpu.globalId(0);",
                "    if (i < in.length && i < out.length) { out[i] = Gpu.float16ToFloat(in[i]) * 3f; }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void javas(short[] in, float[] out) {",
                "    int i = Gpu.globalId(0);",
                "    if (i < in.length && i < out.length) { out[i] = Float.float16ToFloat(in[i]); }",
                "  }",
                "}"));
    assertThat(compilation).succeeded();
    byte[] forArithmetic = Kernels.module(compilation, "test", "Halves", "forArithmetic");
    SpirvTools.validate("forArithmetic", forArithmetic);
    String device = SpirvTools.disassemble(forArithmetic);
    assertThat(device).contains(KEEPS_HALF_SUBNORMALS);
    assertThat(device).contains("UnpackHalf2x16");
    assertThat(device).contains("%halfConversionExact = OpSpecConstantFalse %bool");
    assertThat(device)
        .contains("OpDecorate %halfConversionExact SpecId " + LaunchAbi.HALF_CONVERSION_SPEC_ID);
    byte[] javas = Kernels.module(compilation, "test", "Halves", "javas");
    SpirvTools.validate("javas", javas);
    String java = SpirvTools.disassemble(javas);
    assertThat(java).doesNotContain(KEEPS_HALF_SUBNORMALS);
    assertThat(java).doesNotContain("UnpackHalf2x16");
    assertThat(java).doesNotContain("halfConversionExact");
  }
}
