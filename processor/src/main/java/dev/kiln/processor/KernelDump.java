package dev.kiln.processor;

import dev.kiln.processor.ir.IrText;
import dev.kiln.processor.pass.Vectorize;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * What {@code -Akiln.dump=<dir>} writes for each kernel and group, under the package's folder: the
 * final IR as text headed by whether and why it was vectorized and what the analyses proved ({@code
 * .ir.txt}), the module ({@code .spv}), and its disassembly ({@code .spvasm}) where {@code
 * spirv-dis} is on the path; and which CPU twins could not be made ({@code <Owner>$KilnCpu.txt}).
 */
final class KernelDump {
  private KernelDump() {}

  static void write(
      Path dir,
      String packageName,
      String resource,
      String what,
      Vectorize.Decision decision,
      String analyses,
      byte[] module)
      throws IOException {
    Path folder = dir.resolve(packageName.replace('.', '/'));
    Files.createDirectories(folder);
    String base = resource.substring(0, resource.length() - ".spv".length());
    Path spv = folder.resolve(base + ".spv");
    Files.write(spv, module);
    String verdict =
        switch (decision) {
          case Vectorize.Decision.Vectorized v ->
              "vectorized: " + v.program().elementsPerInvocation() + " elements per invocation";
          case Vectorize.Decision.Kept kept -> "not vectorized: " + kept.reason();
        };
    String disassembly = disassemble(spv, folder.resolve(base + ".spvasm"));
    Files.writeString(
        folder.resolve(base + ".ir.txt"),
        "// "
            + what
            + "; "
            + verdict
            + "\n// analyses: "
            + analyses
            + "\n// SPIR-V: "
            + disassembly
            + "\n"
            + IrText.of(decision.program()),
        StandardCharsets.UTF_8);
  }

  /**
   * Which kernels and groups of {@code binaryName}'s twins were left to the method path, and why
   * ({@code .txt}).
   */
  static void twinsLeftOut(Path dir, String binaryName, java.util.Map<String, String> leftOut)
      throws IOException {
    Path file = dir.resolve(binaryName.replace('.', '/') + ".txt");
    Files.createDirectories(file.getParent());
    StringBuilder text =
        new StringBuilder("// CPU twins left out; the CPU backend runs these methods themselves\n");
    leftOut.forEach((name, why) -> text.append(name).append(": ").append(why).append('\n'));
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  /** Runs {@code spirv-dis} on {@code spv} into {@code out}; says what became of it. */
  private static String disassemble(Path spv, Path out) {
    try {
      Process process =
          new ProcessBuilder("spirv-dis", "-o", out.toString(), spv.toString())
              .redirectErrorStream(true)
              .start();
      process.getInputStream().readAllBytes();
      if (process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0) {
        return out.getFileName().toString();
      }
      process.destroyForcibly();
      return "spirv-dis failed on " + spv.getFileName();
    } catch (IOException e) {
      return "spirv-dis is not on the path; disassemble " + spv.getFileName() + " with it";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted while disassembling";
    }
  }
}
