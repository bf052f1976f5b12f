package dev.kiln.processor.lower;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.Kernels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A helper's branch on a parameter its call binds to a constant keeps only the branch taken: each
 * kernel's program holds the code it runs. A parameter the helper assigns is not folded, and an
 * error in the branch not taken is still reported.
 */
class ConstantBranchesTest {
  @TempDir Path dump;

  @Test
  void eachCallKeepsTheBranchItsConstantTakes() throws IOException {
    Compilation compilation =
        Kernels.compile(
            List.of("-Akiln.dump=" + dump),
            kernels(
                "  static void scale(float[] x, int i, int form) {",
                "    if (form != 0 && form < 3) {",
                "      x[i] = x[i] * 3f;",
                "    } else {",
                "      x[i] = x[i] + 7f;",
                "    }",
                "  }"));
    assertThat(compilation).succeededWithoutWarnings();
    String tripled = program("tripled");
    String shifted = program("shifted");
    assertThat(tripled).contains("3.0f");
    assertThat(tripled).doesNotContain("7.0f");
    assertThat(shifted).contains("7.0f");
    assertThat(shifted).doesNotContain("3.0f");
  }

  @Test
  void aParameterTheHelperAssignsKeepsBothBranches() throws IOException {
    Compilation compilation =
        Kernels.compile(
            List.of("-Akiln.dump=" + dump),
            kernels(
                "  static void scale(float[] x, int i, int form) {",
                "    form--;",
                "    if (form != 0 && form < 3) {",
                "      x[i] = x[i] * 3f;",
                "    } else {",
                "      x[i] = x[i] + 7f;",
                "    }",
                "  }"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(program("tripled")).contains("7.0f");
    assertThat(program("tripled")).contains("3.0f");
  }

  @Test
  void anErrorInTheBranchNotTakenIsReported() {
    JavaFileObject source =
        kernels(
            "  static void scale(float[] x, int i, int form) {",
            "    if (form != 0 && form < 3) {",
            "      x[i] = x[i] * 3f;",
            "    } else {",
            "      String label = \"seven\";",
            "      x[i] = x[i] + 7f;",
            "    }",
            "  }");
    Compilation compilation = Kernels.compile(source);
    assertThat(compilation).hadErrorContaining("[kiln.unsupported.type]").inFile(source);
  }

  /** Kernel {@code tripled} calls {@code scale} with form 1, {@code shifted} with form 0. */
  private static JavaFileObject kernels(String... helper) {
    List<String> lines =
        new java.util.ArrayList<>(
            List.of(
                "package test;",
                "import dev.kiln.Gpu;",
                "import dev.kiln.annotations.Kernel;",
                "final class Folded {",
                "  @Kernel(workgroup = 64)",
                "  static void tripled(float[] x) {",
                "    int i = Gpu.globalId(0);",
                "    if (i < x.length) {",
                "      scale(x, i, 1);",
                "    }",
                "  }",
                "  @Kernel(workgroup = 64)",
                "  static void shifted(float[] x) {",
                "    int i = Gpu.globalId(0);",
                "    if (i < x.length) {",
                "      scale(x, i, 0);",
                "    }",
                "  }"));
    lines.addAll(List.of(helper));
    lines.add("}");
    return JavaFileObjects.forSourceLines("test.Folded", lines);
  }

  /** The IR the processor dumped for {@code kernel}. */
  private String program(String kernel) throws IOException {
    return Files.readString(Kernels.dumped(dump, kernel, ".ir.txt"));
  }
}
