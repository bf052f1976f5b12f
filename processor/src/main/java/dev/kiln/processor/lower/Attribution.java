package dev.kiln.processor.lower;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

/**
 * Which top-level classes javac compiles from source in this run, and which of them it has
 * analyzed. By default javac attributes, lowers and generates one class at a time, so a kernel's
 * class and the class of a helper it calls are never attributed at once: a helper of another class
 * is lowered when its own class has been analyzed ({@link HelperTemplates}) and linked into the
 * kernel once both are ({@link HelperLinker}).
 */
public final class Attribution {
  private final Set<String> fromSource = new HashSet<>();
  private final Set<String> analyzed = new HashSet<>();

  /** The top-level classes of a processing round, which javac compiles from source. */
  public void compiledFromSource(Collection<? extends Element> roots) {
    for (Element root : roots) {
      if (root instanceof TypeElement type) {
        fromSource.add(type.getQualifiedName().toString());
      }
    }
  }

  /** Whether javac compiles the top-level class {@code type} from source in this run. */
  boolean compiles(TypeElement type) {
    return fromSource.contains(type.getQualifiedName().toString());
  }

  /** javac has analyzed the top-level class {@code type} (the ANALYZE task event has finished). */
  public void analyzed(TypeElement type) {
    analyzed.add(type.getQualifiedName().toString());
  }

  /** Whether javac has analyzed the top-level class named {@code qualifiedName}. */
  boolean isAnalyzed(String qualifiedName) {
    return analyzed.contains(qualifiedName);
  }
}
