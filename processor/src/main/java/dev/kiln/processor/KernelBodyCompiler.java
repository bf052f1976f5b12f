package dev.kiln.processor;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.processor.diag.Diagnostics;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.lower.KernelLowering;
import dev.kiln.processor.model.KernelSignature;
import dev.kiln.processor.spirv.SpirvWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import javax.annotation.processing.Filer;
import dev.kiln.annotations.Kernel;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Compiles kernel bodies once javac has attributed them: when a class finishes analysis, each of
 * its pending kernels (and those of its member classes) is lowered to IR and written as a SPIR-V
 * resource beside the class. Nothing thrown here reaches javac: an unexpected failure becomes one
 * error on the kernel.
 */
final class KernelBodyCompiler implements TaskListener {
  private final Filer filer;
  private final Elements elements;
  private final Trees trees;
  private final Diagnostics diagnostics;
  private final LocalKernelScanner localKernels;
  private final List<KernelSignature> pending = new ArrayList<>();

  KernelBodyCompiler(Filer filer, Elements elements, Trees trees, Diagnostics diagnostics) {
    this.filer = filer;
    this.elements = elements;
    this.trees = trees;
    this.diagnostics = diagnostics;
    this.localKernels = new LocalKernelScanner(trees, diagnostics);
  }

  /** Kernels to compile when their class has been analyzed. */
  void expect(List<KernelSignature> kernels) {
    pending.addAll(kernels);
  }

  @Override
  public void finished(TaskEvent event) {
    if (event.getKind() != TaskEvent.Kind.ANALYZE || event.getTypeElement() == null) {
      return;
    }
    try {
      localKernels.scan(event.getTypeElement());
    } catch (RuntimeException | StackOverflowError e) {
      diagnostics.error(event.getTypeElement(), Message.INTERNAL, "in " + event.getTypeElement().getSimpleName(), e);
    }
    String analyzed = event.getTypeElement().getQualifiedName().toString();
    for (Iterator<KernelSignature> it = pending.iterator(); it.hasNext(); ) {
      KernelSignature kernel = it.next();
      String owner = kernel.owner().getQualifiedName().toString();
      if (owner.equals(analyzed) || owner.startsWith(analyzed + ".")) {
        it.remove();
        compile(current(kernel));
      }
    }
  }

  /**
   * The kernel with its elements as javac has them now: javac enters the classes anew after the
   * last round, and the elements of a round no longer lead to attributed trees.
   */
  private KernelSignature current(KernelSignature kernel) {
    TypeElement owner = elements.getTypeElement(kernel.owner().getQualifiedName());
    if (owner == null) {
      return kernel;
    }
    return ElementFilter.methodsIn(owner.getEnclosedElements()).stream()
        .filter(method -> method.getSimpleName().contentEquals(kernel.name()) && method.getAnnotation(Kernel.class) != null)
        .findFirst()
        .map(method -> kernel.rebind(owner, method))
        .orElse(kernel);
  }

  private void compile(KernelSignature kernel) {
    TreePath path = trees.getPath(kernel.method());
    if (path == null) {
      diagnostics.error(kernel.method(), Message.INTERNAL, kernel.name(), "javac has no source tree for it");
      return;
    }
    CompilationUnitTree unit = path.getCompilationUnit();
    try {
      Optional<Program> program = new KernelLowering(trees, unit, diagnostics, kernel).lower(path);
      if (program.isPresent()) {
        write(kernel, SpirvWriter.write(program.get()));
      }
    } catch (RuntimeException | StackOverflowError e) {
      diagnostics.error(path.getLeaf(), unit, Message.INTERNAL, kernel.name(), e);
    }
  }

  private void write(KernelSignature kernel, byte[] module) {
    try {
      FileObject resource = filer.createResource(StandardLocation.CLASS_OUTPUT, kernel.packageName(),
          kernel.moduleResource(), kernel.method());
      try (OutputStream out = resource.openOutputStream()) {
        out.write(module);
      }
    } catch (IOException e) {
      diagnostics.error(kernel.method(), Message.INTERNAL, kernel.name(), "cannot write " + kernel.moduleResource() + ": " + e);
    }
  }
}
