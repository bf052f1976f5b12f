package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs the SPIR-V tools (package spirv-tools). Where they are missing, tests that need them are
 * skipped with a message, unless {@code -Dkiln.noSkips=true} (CI) makes that a failure.
 */
public final class SpirvTools {
  private SpirvTools() {}

  /**
   * Validates {@code module} for Vulkan 1.1; fails with the validator's message if it is invalid.
   */
  public static void validate(String what, byte[] module) {
    Result result = run(module, "spirv-val", "--target-env", "vulkan1.1");
    if (result.exitCode != 0) {
      fail("spirv-val rejects " + what + ":\n" + result.output + "\n" + disassemble(module));
    }
  }

  /** The module's text form, without the header comment. */
  public static String disassemble(byte[] module) {
    Result result = run(module, "spirv-dis", "--no-header");
    if (result.exitCode != 0) {
      fail("spirv-dis failed:\n" + result.output);
    }
    return result.output;
  }

  /** Skips the test (fails it in CI) unless spirv-dis runs. */
  public static void requireDisassembler() {
    try {
      new ProcessBuilder("spirv-dis", "--version").redirectErrorStream(true).start().waitFor();
    } catch (IOException notInstalled) {
      skip("spirv-dis", notInstalled);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static void skip(String tool, IOException notInstalled) {
    String message =
        tool
            + " is not installed (Debian: apt-get install spirv-tools, or bash .ci/spirv-tools.sh for one that knows cooperative matrices): "
            + notInstalled.getMessage();
    if (Boolean.getBoolean("kiln.noSkips")) {
      fail(message);
    }
    Assumptions.abort(message);
  }

  private record Result(int exitCode, String output) {}

  private static Result run(byte[] module, String tool, String... options) {
    Path file = null;
    try {
      file = Files.createTempFile("kiln", ".spv");
      Files.write(file, module);
      List<String> command = new ArrayList<>();
      command.add(tool);
      command.addAll(List.of(options));
      command.add(file.toString());
      Process process;
      try {
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
      } catch (IOException notInstalled) {
        skip(tool, notInstalled);
        throw new AssertionError(notInstalled);
      }
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return new Result(process.waitFor(), output);
    } catch (IOException | InterruptedException e) {
      throw new AssertionError("running " + tool + " failed", e);
    } finally {
      if (file != null) {
        file.toFile().delete();
      }
    }
  }
}
