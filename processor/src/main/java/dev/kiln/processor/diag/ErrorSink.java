package dev.kiln.processor.diag;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;

/**
 * Where lowering reports an error on a tree: to javac at once ({@link Diagnostics}) or later
 * ({@link HeldErrors}).
 */
public interface ErrorSink {
  void error(Tree tree, CompilationUnitTree unit, Diagnostic diagnostic);
}
