package dev.kiln.processor;

import com.sun.source.tree.CompilationUnitTree;
import dev.kiln.abi.DescriptionCodec;
import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.LaunchAbi;
import dev.kiln.processor.analysis.Analysis;
import dev.kiln.processor.cpu.CpuTwins;
import dev.kiln.processor.diag.Diagnostics;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.pass.Vectorize;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.StandardLocation;

/**
 * What the pipeline writes through javac's {@link Filer}: each kernel's and group's SPIR-V module
 * and each class's CPU twins, as class-output resources beside the kernel class, and, where {@code
 * -Akiln.dump} names a folder, what {@link KernelDump} writes there.
 */
final class Outputs {
  private final Filer filer;
  private final Elements elements;
  private final Diagnostics diagnostics;

  /** Where {@code -Akiln.dump} asks for each program's IR and module; null for nowhere. */
  private final Path dump;

  Outputs(Filer filer, Elements elements, Diagnostics diagnostics, Path dump) {
    this.filer = filer;
    this.elements = elements;
    this.diagnostics = diagnostics;
    this.dump = dump;
  }

  /**
   * Writes a module as the resource {@code resource} of {@code packageName} and its description
   * beside it ({@link DescriptionCodec#resourceOf}), and its dump where one is asked for (a dump
   * that fails is a warning on {@code origin}).
   */
  void module(
      Element origin,
      String packageName,
      String resource,
      String what,
      Vectorize.Decision decision,
      Analysis written,
      byte[] module,
      KernelDescription description)
      throws IOException {
    try (OutputStream out =
        filer
            .createResource(StandardLocation.CLASS_OUTPUT, packageName, resource, origin)
            .openOutputStream()) {
      out.write(module);
    }
    try (OutputStream out =
        filer
            .createResource(
                StandardLocation.CLASS_OUTPUT,
                packageName,
                DescriptionCodec.resourceOf(resource),
                origin)
            .openOutputStream()) {
      out.write(DescriptionCodec.write(description));
    }
    if (dump != null) {
      try {
        KernelDump.write(dump, packageName, resource, what, decision, written.summary(), module);
      } catch (IOException e) {
        diagnostics.warning(
            origin, "Kiln could not write the dump of " + what + " to " + dump + ": " + e);
      }
    }
  }

  /**
   * Writes the CPU twins of one class's kernels and groups, declared in {@code unit}; one that
   * cannot be made is left to the CPU backend's method path, said in the dump.
   */
  void twins(TypeElement owner, CompilationUnitTree unit, List<CpuTwins.Source> twins) {
    String binaryName = elements.getBinaryName(owner) + LaunchAbi.TWINS_SUFFIX;
    try {
      String sourceFile = Path.of(unit.getSourceFile().toUri().getPath()).getFileName().toString();
      CpuTwins.Written written = CpuTwins.write(binaryName, sourceFile, twins);
      if (written.classFile() != null) {
        // a resource rather than a class file: javac warns of a type made in the last round of
        // processing
        String packageName = elements.getPackageOf(owner).getQualifiedName().toString();
        String simpleName =
            binaryName.substring(packageName.isEmpty() ? 0 : packageName.length() + 1);
        try (OutputStream out =
            filer
                .createResource(
                    StandardLocation.CLASS_OUTPUT, packageName, simpleName + ".class", owner)
                .openOutputStream()) {
          out.write(written.classFile());
        }
      }
      if (dump != null && !written.leftOut().isEmpty()) {
        KernelDump.twinsLeftOut(dump, binaryName, written.leftOut());
      }
    } catch (IOException e) {
      diagnostics.warning(
          owner,
          "Kiln could not write the CPU twins "
              + binaryName
              + ": "
              + e
              + "; the CPU backend runs the kernel methods themselves");
    } catch (OutOfMemoryError e) {
      diagnostics.error(
          owner,
          Errors.outOfMemory(
              "the CPU twins of " + owner.getSimpleName(), Runtime.getRuntime().maxMemory() >> 20));
    } catch (RuntimeException e) {
      diagnostics.error(owner, Errors.internal("the CPU twins of " + owner.getSimpleName(), e));
    }
  }
}
