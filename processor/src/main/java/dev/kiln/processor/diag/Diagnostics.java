package dev.kiln.processor.diag;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.Trees;
import javax.annotation.processing.Messager;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic.Kind;

/** Reports catalogued errors on elements (during the rounds) or on trees (after attribution). */
public final class Diagnostics {
  private final Messager messager;
  private final Trees trees;

  public Diagnostics(Messager messager, Trees trees) {
    this.messager = messager;
    this.trees = trees;
  }

  public void error(Element element, Message message, Object... args) {
    messager.printMessage(Kind.ERROR, message.render(args), element);
  }

  /** A warning that is no catalogued error: something Kiln could not do that the build does not need. */
  public void warning(Element element, String message) {
    messager.printMessage(Kind.WARNING, message, element);
  }

  public void warning(Tree tree, CompilationUnitTree unit, Message message, Object... args) {
    trees.printMessage(Kind.WARNING, message.render(args), tree, unit);
  }

  public void error(Tree tree, CompilationUnitTree unit, Message message, Object... args) {
    trees.printMessage(Kind.ERROR, message.render(args), tree, unit);
  }
}
