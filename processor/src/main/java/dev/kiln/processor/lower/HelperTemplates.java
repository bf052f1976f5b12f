package dev.kiln.processor.lower;

import com.sun.source.tree.MethodTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.processor.diag.ErrorSink;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.diag.HeldErrors;
import dev.kiln.processor.model.SignatureReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;

/**
 * The helpers that kernels of other classes may call, each lowered once, when javac has analyzed
 * its class: its trees are attributed then and not yet lowered by javac. Which static methods those
 * are, {@link HelperNames} says. A helper's errors are held with its template and reported when a
 * kernel first links it, so a method no kernel calls never reports anything.
 */
public final class HelperTemplates {
  private record Made(HelperTemplate template, HeldErrors errors) {}

  private final Trees trees;
  private final HelperNames names;
  private final Attribution attribution;
  private final Sites sites;
  private final Map<String, Made> byKey = new HashMap<>();

  public HelperTemplates(Trees trees, HelperNames names, Attribution attribution, Sites sites) {
    this.trees = trees;
    this.names = names;
    this.attribution = attribution;
    this.sites = sites;
  }

  /**
   * Lowers the helpers kernels may call among the static methods of {@code type}, a top-level class
   * javac has just analyzed, and of the classes nested in it; marks {@code type} analyzed.
   */
  public void analyzed(TypeElement type) {
    attribution.analyzed(type);
    Deque<TypeElement> types = new ArrayDeque<>(List.of(type));
    while (!types.isEmpty()) {
      TypeElement next = types.pop();
      types.addAll(ElementFilter.typesIn(next.getEnclosedElements()));
      for (ExecutableElement method : ElementFilter.methodsIn(next.getEnclosedElements())) {
        if (method.getModifiers().contains(Modifier.STATIC)
            && names.wanted(method.getSimpleName().toString())
            && lowerable(method)
            && trees.getTree(method) instanceof MethodTree tree
            && tree.getBody() != null) {
          lower(method);
        }
      }
    }
  }

  /**
   * Lowers one helper; a failure of Kiln's own is held as an error on it, and leaves no template.
   */
  private void lower(ExecutableElement method) {
    HeldErrors errors = new HeldErrors();
    String key = Library.signature(method);
    HelperTemplate template = null;
    try {
      template = KernelLowering.ofHelper(trees, errors, method, sites, attribution).template(key);
    } catch (RuntimeException | StackOverflowError e) {
      TreePath path = trees.getPath(method);
      errors.error(
          path.getLeaf(),
          path.getCompilationUnit(),
          Errors.internal("the helper " + method.getSimpleName(), e));
    }
    byKey.put(key, new Made(template, errors));
  }

  /** Whether javac has analyzed the top-level class named {@code qualifiedName}. */
  boolean analyzed(String qualifiedName) {
    return attribution.isAnalyzed(qualifiedName);
  }

  /**
   * The template of {@code key}, its held errors reported to {@code sink} if this is the first time
   * it is asked for; empty if there is none.
   */
  Optional<HelperTemplate> linked(String key, ErrorSink sink) {
    Made made = byKey.get(key);
    if (made == null) {
      return Optional.empty();
    }
    made.errors().reportOnce(sink);
    return Optional.ofNullable(made.template());
  }

  /** The template of {@code key}, if there is one, without reporting anything. */
  Optional<HelperTemplate> find(String key) {
    return Optional.ofNullable(byKey.get(key))
        .map(Made::template); // empty for a helper Kiln failed on
  }

  /**
   * Whether Kiln can lower the method on its own: its parameters are primitives or arrays of them
   * and it returns one or nothing. A kernel's call of any other is an error at the call.
   */
  private static boolean lowerable(ExecutableElement method) {
    for (VariableElement parameter : method.getParameters()) {
      TypeMirror type =
          parameter.asType() instanceof ArrayType array
              ? array.getComponentType()
              : parameter.asType();
      if (SignatureReader.primType(type).isEmpty()) {
        return false;
      }
    }
    return method.getReturnType().getKind() == TypeKind.VOID
        || SignatureReader.primType(method.getReturnType()).isPresent();
  }
}
