package dev.kiln.processor.lower;

import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;

/**
 * The names of the methods that kernels may call, directly or through helpers, found from the
 * source trees during the rounds, before javac attributes them: a class analyzed before the kernels
 * that call into it must lower those helpers then ({@link HelperTemplates}), as its trees are
 * lowered by javac once it is generated. Names are simple names, so the set holds every method that
 * may be called and some that are not; a template made for nothing costs only its lowering.
 */
public final class HelperNames {
  private final Trees trees;
  private final Set<String> calledByKernels = new HashSet<>();

  /** For each simple name of a static method compiled from source, the names its bodies call. */
  private final Map<String, Set<String>> calledByMethods = new HashMap<>();

  private Set<String> wanted;

  public HelperNames(Trees trees) {
    this.trees = trees;
  }

  /** Reads the calls in a kernel's body. */
  public void kernel(ExecutableElement kernel) {
    if (trees.getTree(kernel) instanceof MethodTree method) {
      calledByKernels.addAll(calls(method));
      wanted = null;
    }
  }

  /**
   * Reads the calls in the body of every static method of a round's classes, nested ones included.
   */
  public void roots(Collection<? extends Element> roots) {
    Deque<Element> types = new ArrayDeque<>(roots);
    while (!types.isEmpty()) {
      if (types.pop() instanceof TypeElement type) {
        types.addAll(ElementFilter.typesIn(type.getEnclosedElements()));
        for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
          if (method.getModifiers().contains(Modifier.STATIC)
              && trees.getTree(method) instanceof MethodTree tree
              && tree.getBody() != null) {
            calledByMethods
                .computeIfAbsent(method.getSimpleName().toString(), name -> new HashSet<>())
                .addAll(calls(tree));
          }
        }
      }
    }
    wanted = null;
  }

  /** Whether a kernel may call a method named {@code name}, directly or through other methods. */
  boolean wanted(String name) {
    if (wanted == null) {
      wanted = new HashSet<>();
      Deque<String> next = new ArrayDeque<>(calledByKernels);
      while (!next.isEmpty()) {
        String called = next.pop();
        if (wanted.add(called)) {
          next.addAll(calledByMethods.getOrDefault(called, Set.of()));
        }
      }
    }
    return wanted.contains(name);
  }

  private static Set<String> calls(MethodTree method) {
    Set<String> names = new HashSet<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
        switch (call.getMethodSelect()) {
          case IdentifierTree name -> names.add(name.getName().toString());
          case MemberSelectTree select -> names.add(select.getIdentifier().toString());
          default -> {}
        }
        return super.visitMethodInvocation(call, unused);
      }
    }.scan(method.getBody(), null);
    return names;
  }
}
