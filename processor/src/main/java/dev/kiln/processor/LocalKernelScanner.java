package dev.kiln.processor;

import com.sun.source.tree.MethodTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import dev.kiln.annotations.Kernel;
import dev.kiln.processor.diag.Diagnostics;
import dev.kiln.processor.diag.Errors;
import javax.lang.model.element.Element;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;

/**
 * Finds {@code @Kernel} methods of local and anonymous classes, which annotation processing rounds
 * never see, so that they are reported instead of silently staying plain Java.
 */
final class LocalKernelScanner extends TreePathScanner<Void, Void> {
  private final Trees trees;
  private final Diagnostics diagnostics;

  LocalKernelScanner(Trees trees, Diagnostics diagnostics) {
    this.trees = trees;
    this.diagnostics = diagnostics;
  }

  /** Scans a top-level class, member classes included; other classes are scanned with theirs. */
  void scan(TypeElement type) {
    if (type.getNestingKind() != NestingKind.TOP_LEVEL) {
      return;
    }
    TreePath path = trees.getPath(type);
    if (path != null) {
      scan(path, null);
    }
  }

  @Override
  public Void visitMethod(MethodTree tree, Void unused) {
    Element method = trees.getElement(getCurrentPath());
    if (method != null
        && method.getAnnotation(Kernel.class) != null
        && method.getEnclosingElement() instanceof TypeElement owner
        && (owner.getNestingKind() == NestingKind.LOCAL
            || owner.getNestingKind() == NestingKind.ANONYMOUS)) {
      String where =
          owner.getNestingKind() == NestingKind.LOCAL
              ? "the local class " + owner.getSimpleName()
              : "an anonymous class";
      diagnostics.error(
          tree,
          getCurrentPath().getCompilationUnit(),
          Errors.kernelEnclosing(tree.getName(), where));
    }
    return super.visitMethod(tree, unused);
  }
}
