package dev.kiln.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;

/**
 * Test fixtures: kernel sources kept under src/test/resources, compiled with the Kiln processor.
 */
public final class Kernels {
  private Kernels() {}

  /** The fixture {@code resource}, e.g. {@code "corpus/Saxpy.java"}, as a source file. */
  public static JavaFileObject source(String resource) {
    String text = text(resource);
    Matcher pkg = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE).matcher(text);
    String name =
        resource.substring(resource.lastIndexOf('/') + 1, resource.length() - ".java".length());
    return JavaFileObjects.forSourceString(pkg.find() ? pkg.group(1) + "." + name : name, text);
  }

  public static String text(String resource) {
    try (InputStream in = Kernels.class.getResourceAsStream("/" + resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Compilation compile(JavaFileObject... sources) {
    return Compiler.javac().withProcessors(new KilnProcessor()).compile(sources);
  }

  public static Compilation compile(java.util.List<String> options, JavaFileObject... sources) {
    return Compiler.javac()
        .withProcessors(new KilnProcessor())
        .withOptions(options)
        .compile(sources);
  }

  /**
   * The file that {@code -Akiln.dump=}{@code dump} wrote for {@code kernel} whose name ends {@code
   * suffix} ({@code ".ir.txt"}, {@code ".spv"}).
   */
  public static java.nio.file.Path dumped(java.nio.file.Path dump, String kernel, String suffix)
      throws IOException {
    try (var files = java.nio.file.Files.walk(dump)) {
      return files
          .filter(file -> file.getFileName().toString().endsWith("." + kernel + suffix))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no " + suffix + " dumped for " + kernel));
    }
  }

  /** The SPIR-V module the processor wrote for kernel {@code pkg.<flatName>#kernel}. */
  public static byte[] module(Compilation compilation, String pkg, String flatName, String kernel) {
    String name = flatName + "." + kernel + ".spv";
    JavaFileObject file =
        compilation
            .generatedFile(StandardLocation.CLASS_OUTPUT, pkg, name)
            .orElseThrow(
                () ->
                    new AssertionError(
                        "no SPIR-V resource test/"
                            + name
                            + " among "
                            + Arrays.toString(
                                compilation.generatedFiles().stream()
                                    .map(JavaFileObject::getName)
                                    .toArray())));
    try (InputStream in = file.openInputStream()) {
      byte[] bytes = in.readAllBytes();
      assertWithMessage("SPIR-V module %s", name).that(bytes.length % 4).isEqualTo(0);
      return bytes;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The description the processor wrote beside the module of kernel {@code pkg.<flatName>#kernel}.
   */
  public static dev.kiln.abi.KernelDescription description(
      Compilation compilation, String pkg, String flatName, String kernel) {
    String name = dev.kiln.abi.DescriptionCodec.resourceOf(flatName + "." + kernel + ".spv");
    JavaFileObject file =
        compilation
            .generatedFile(StandardLocation.CLASS_OUTPUT, pkg, name)
            .orElseThrow(() -> new AssertionError("no description " + pkg + "/" + name));
    try (InputStream in = file.openInputStream()) {
      return dev.kiln.abi.DescriptionCodec.read(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
