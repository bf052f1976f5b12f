package dev.kiln.processor.diag;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.processing.Messager;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic.Kind;

/** Reports catalogued errors on elements (during the rounds) or on trees (after attribution). */
public final class Diagnostics implements ErrorSink {
  private final Messager messager;
  private final Trees trees;

  /**
   * Errors on elements reported during the rounds, held until javac has analyzed a class: an error
   * during the rounds stops javac before attribution, so one bad kernel signature would hide every
   * kernel body's errors. Null once released.
   */
  private List<Runnable> held = new ArrayList<>();

  public Diagnostics(Messager messager, Trees trees) {
    this.messager = messager;
    this.trees = trees;
  }

  public void error(Element element, Diagnostic diagnostic) {
    String text = diagnostic.text();
    // the element's tree now: after the rounds javac enters the classes anew, and elements of the
    // rounds no longer lead to their source
    TreePath path = held == null ? null : trees.getPath(element);
    if (path != null) {
      held.add(
          () -> trees.printMessage(Kind.ERROR, text, path.getLeaf(), path.getCompilationUnit()));
    } else {
      messager.printMessage(Kind.ERROR, text, element);
    }
  }

  /** Reports the errors held since the rounds began; from now on errors are reported at once. */
  public void releaseHeldErrors() {
    if (held != null) {
      List<Runnable> errors = held;
      held = null;
      errors.forEach(Runnable::run);
    }
  }

  /**
   * A warning that is no catalogued error: something Kiln could not do that the build does not
   * need.
   */
  public void warning(Element element, String message) {
    messager.printMessage(Kind.WARNING, message, element);
  }

  public void warning(Tree tree, CompilationUnitTree unit, Diagnostic diagnostic) {
    trees.printMessage(Kind.WARNING, diagnostic.text(), tree, unit);
  }

  @Override
  public void error(Tree tree, CompilationUnitTree unit, Diagnostic diagnostic) {
    trees.printMessage(Kind.ERROR, diagnostic.text(), tree, unit);
  }
}
