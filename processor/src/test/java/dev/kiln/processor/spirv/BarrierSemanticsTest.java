package dev.kiln.processor.spirv;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.Kernels;
import dev.kiln.processor.SpirvTools;
import org.junit.jupiter.api.Test;

/**
 * {@code Gpu.barrier()} orders buffer memory only where another invocation may meet a buffer access
 * across it: a buffer written and also read or stored plainly, with an access before a barrier or
 * in a loop that waits at one. A reduction that only reads its input and adds atomically, and a
 * tiled kernel that stores after its last barrier, get GLSL's workgroup-memory barrier.
 */
class BarrierSemanticsTest {
  /** AcquireRelease | WorkgroupMemory, and with UniformMemory (buffers). */
  private static final String WORKGROUP_ONLY = "OpControlBarrier %uint_2 %uint_2 %uint_264";

  private static final String WITH_BUFFERS = "OpControlBarrier %uint_2 %uint_2 %uint_328";

  @Test
  void buffersAreOrderedOnlyWhereAccessesCanMeet() {
    Compilation compilation =
        Kernels.compile(
            JavaFileObjects.forSourceLines(
                "test.Barriers",
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Barriers {",
                "  @Kernel(workgroup = 64)",
                "  static void readAndAdd(int[] values, int[] total) {",
                "    int[] partial = Gpu.sharedInts(64);",
                "    int l = Gpu.localId(0);",
                "    int i = Gpu.globalId(0);",
                "    partial[l] = i < values.length ? values[i] : 0;",
                "    Gpu.barrier();",
                "    if (l == 0) {",
                "      int sum = 0;",
                "      for (int k = 0; k < 64; k++) { sum += partial[k]; }",
                "      Gpu.atomicAdd(total, 0, sum);",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void storeAfterTheLastBarrier(float[] in, float[] out) {",
                "    float[] tile = Gpu.sharedFloats(64);",
                "    int l = Gpu.localId(0);",
                "    int i = Gpu.globalId(0);",
                "    float sum = 0f;",
                "    for (int t = 0; t < 4; t++) {",
                "      tile[l] = i < in.length ? in[i] * t : 0f;",
                "      Gpu.barrier();",
                "      sum += tile[63 - l];",
                "      Gpu.barrier();",
                "    }",
                "    if (i < out.length) { out[i] = sum; }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void storeInALoopWithABarrier(float[] out) {",
                "    int i = Gpu.globalId(0);",
                "    for (int t = 0; t < 4; t++) {",
                "      if (i < out.length) { out[i] = t; }",
                "      Gpu.barrier();",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void writeThenRead(float[] data) {",
                "    int i = Gpu.globalId(0);",
                "    if (i < data.length) { data[i] = data[i] * 2f; }",
                "    Gpu.barrier();",
                "    if (i + 1 < data.length && Gpu.localId(0) < 63) { data[i] = data[i] + data[i + 1]; }",
                "  }",
                "}"));
    assertThat(compilation).succeededWithoutWarnings();
    String readAndAdd = disassembled(compilation, "readAndAdd");
    String writeThenRead = disassembled(compilation, "writeThenRead");
    assertThat(readAndAdd).contains(WORKGROUP_ONLY);
    assertThat(readAndAdd).doesNotContain(WITH_BUFFERS);
    assertThat(writeThenRead).contains(WITH_BUFFERS);
    String storeAfter = disassembled(compilation, "storeAfterTheLastBarrier");
    assertThat(storeAfter).contains(WORKGROUP_ONLY);
    assertThat(storeAfter).doesNotContain(WITH_BUFFERS);
    String storeInLoop = disassembled(compilation, "storeInALoopWithABarrier");
    assertThat(storeInLoop).contains(WITH_BUFFERS);
  }

  private static String disassembled(Compilation compilation, String kernel) {
    return SpirvTools.disassemble(Kernels.module(compilation, "test", "Barriers", kernel));
  }
}
