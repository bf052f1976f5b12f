package dev.kiln.processor.lower;

import java.util.HashSet;
import java.util.Set;
import javax.lang.model.element.TypeElement;

/**
 * Which top-level classes of the compilation javac holds as attributed trees now: those it has
 * begun to analyze and not yet begun to generate (lowering, just before generation, rewrites a
 * class's trees). A kernel can inline a static method of another class only while that class is
 * held. By default javac attributes, lowers and generates one class at a time, so another class
 * is never held when a kernel's class is analyzed; with {@code -XDcompilePolicy=simple} javac
 * attributes every class before it lowers any, and all are.
 */
public final class Attribution {
  private final Set<String> fromSource = new HashSet<>();
  private final Set<String> analyzing = new HashSet<>();
  private final Set<String> generating = new HashSet<>();

  /** The top-level classes of a processing round, which javac compiles from source. */
  public void compiledFromSource(java.util.Collection<? extends javax.lang.model.element.Element> roots) {
    for (javax.lang.model.element.Element root : roots) {
      if (root instanceof TypeElement type) {
        fromSource.add(type.getQualifiedName().toString());
      }
    }
  }

  /** Whether javac compiles the top-level class {@code type} from source in this run. */
  boolean compiles(TypeElement type) {
    return fromSource.contains(type.getQualifiedName().toString());
  }

  /** javac begins to analyze {@code type} (the ANALYZE task event). */
  public void analysisStarted(TypeElement type) {
    analyzing.add(type.getQualifiedName().toString());
  }

  /** javac begins to generate {@code type} (the GENERATE task event), its trees lowered already. */
  public void generationStarted(TypeElement type) {
    generating.add(type.getQualifiedName().toString());
  }

  /** Whether javac holds the attributed trees of the top-level class {@code type}. */
  boolean holdsAttributedTree(TypeElement type) {
    String name = type.getQualifiedName().toString();
    return analyzing.contains(name) && !generating.contains(name);
  }
}
