package dev.kiln.processor.model;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Whether a kernel reads an id, workgroup id or workgroup count of axis y or z, so that its
 * launcher takes grids: read from the source before javac attributes it (launchers are written in
 * the processing round). A call of {@code Gpu.globalId}, {@code localId}, {@code workgroupId} or
 * {@code numWorkgroups} counts unless its axis is a constant 0 this can see (a literal, a final
 * local initialized with one, a constant field of the class); helpers are followed where their
 * source is in this compilation and their class is named by the call (by its canonical name, an
 * import, the kernel's package, or as a class around or inside the kernel's), or is the kernel's
 * class, one around it or one a static import names. What this cannot see, the lowered kernel
 * shows; the pipeline refuses a kernel that reads y or z through it while its launcher takes counts
 * ({@code kiln.launch.hiddenAxis}).
 */
final class AxisReads {
  private static final Set<String> ID_READS =
      Set.of("globalId", "localId", "workgroupId", "numWorkgroups");

  private final Trees trees;
  private final Elements elements;
  private final Set<ExecutableElement> seen = new HashSet<>();

  private AxisReads(Trees trees, Elements elements) {
    this.trees = trees;
    this.elements = elements;
  }

  /** Whether {@code kernel}, or a helper it calls that this can see, reads axis y or z. */
  static boolean beyondX(Trees trees, Elements elements, ExecutableElement kernel) {
    return new AxisReads(trees, elements).reads(kernel);
  }

  private boolean reads(ExecutableElement method) {
    if (!seen.add(method)) {
      return false;
    }
    TreePath path = trees.getPath(method);
    if (path == null || !(path.getLeaf() instanceof MethodTree tree) || tree.getBody() == null) {
      return false; // compiled already: its reads are the lowered kernel's to show
    }
    TypeElement owner = (TypeElement) method.getEnclosingElement();
    CompilationUnitTree unit = path.getCompilationUnit();
    Boolean found =
        new TreeScanner<Boolean, Void>() {
          @Override
          public Boolean visitMethodInvocation(MethodInvocationTree call, Void unused) {
            return Boolean.TRUE.equals(super.visitMethodInvocation(call, null))
                || readsBeyondX(call, tree, owner, unit);
          }

          @Override
          public Boolean reduce(Boolean a, Boolean b) {
            return Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b);
          }
        }.scan(tree.getBody(), null);
    return Boolean.TRUE.equals(found);
  }

  private boolean readsBeyondX(
      MethodInvocationTree call, MethodTree method, TypeElement owner, CompilationUnitTree unit) {
    ExpressionTree select = call.getMethodSelect();
    String name =
        switch (select) {
          case IdentifierTree id -> id.getName().toString();
          case MemberSelectTree member -> member.getIdentifier().toString();
          default -> "";
        };
    if (ID_READS.contains(name) && namesGpu(select)) {
      return call.getArguments().size() != 1
          || !Integer.valueOf(0).equals(constant(call.getArguments().getFirst(), method, owner));
    }
    for (TypeElement type : callee(select, owner, unit)) {
      for (ExecutableElement helper : ElementFilter.methodsIn(type.getEnclosedElements())) {
        if (helper.getSimpleName().contentEquals(name) && reads(helper)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The value of an axis argument where this can tell: a literal, a final local the method
   * initializes with one, or a constant field of the kernel's class or one around it; else null.
   */
  private static Object constant(ExpressionTree axis, MethodTree method, TypeElement owner) {
    return switch (axis) {
      case LiteralTree literal -> literal.getValue();
      case ParenthesizedTree parenthesized ->
          constant(parenthesized.getExpression(), method, owner);
      case IdentifierTree name -> {
        Object[] local = {null};
        new TreeScanner<Void, Void>() {
          @Override
          public Void visitVariable(VariableTree variable, Void unused) {
            if (variable.getName().contentEquals(name.getName())
                && variable.getModifiers().getFlags().contains(Modifier.FINAL)
                && variable.getInitializer() instanceof LiteralTree literal) {
              local[0] = literal.getValue();
            }
            return super.visitVariable(variable, null);
          }
        }.scan(method, null);
        yield local[0] != null ? local[0] : field(name.getName().toString(), owner);
      }
      default -> null;
    };
  }

  /** The constant value of a field of {@code owner} or a class around it; null for none. */
  private static Object field(String name, TypeElement owner) {
    for (Element enclosing = owner;
        enclosing instanceof TypeElement type;
        enclosing = type.getEnclosingElement()) {
      for (VariableElement field : ElementFilter.fieldsIn(type.getEnclosedElements())) {
        if (field.getSimpleName().contentEquals(name)) {
          return field.getConstantValue();
        }
      }
    }
    return null;
  }

  /** Whether the call names {@code Gpu}: {@code Gpu.x}, {@code dev.kiln.Gpu.x}, or bare. */
  private static boolean namesGpu(ExpressionTree select) {
    return !(select instanceof MemberSelectTree member)
        || member.getExpression().toString().equals("Gpu")
        || member.getExpression().toString().equals("dev.kiln.Gpu");
  }

  /** The classes whose methods of the call's name it may call. */
  private List<TypeElement> callee(
      ExpressionTree select, TypeElement owner, CompilationUnitTree unit) {
    List<TypeElement> types = new ArrayList<>();
    if (select instanceof MemberSelectTree member) {
      type(member.getExpression().toString(), owner, unit).ifPresent(types::add);
      return types;
    }
    for (Element enclosing = owner;
        enclosing instanceof TypeElement type;
        enclosing = type.getEnclosingElement()) {
      types.add(type);
    }
    String name = ((IdentifierTree) select).getName().toString();
    for (ImportTree imported : unit.getImports()) {
      if (imported.isStatic() && imported.getQualifiedIdentifier() instanceof MemberSelectTree m) {
        String member = m.getIdentifier().toString();
        if (member.equals(name) || member.equals("*")) {
          Optional.ofNullable(elements.getTypeElement(m.getExpression().toString()))
              .ifPresent(types::add);
        }
      }
    }
    return types;
  }

  /** The class a call's qualifier names, where this can tell without attribution. */
  private Optional<TypeElement> type(String name, TypeElement owner, CompilationUnitTree unit) {
    List<String> candidates = new ArrayList<>();
    for (ImportTree imported : unit.getImports()) {
      String qualified = imported.getQualifiedIdentifier().toString();
      if (!imported.isStatic() && qualified.endsWith("." + name)) {
        candidates.add(qualified);
      } else if (!imported.isStatic() && qualified.endsWith(".*")) {
        candidates.add(qualified.substring(0, qualified.length() - 1) + name);
      }
    }
    for (Element enclosing = owner;
        enclosing instanceof TypeElement type;
        enclosing = type.getEnclosingElement()) {
      candidates.add(type.getQualifiedName() + "." + name);
    }
    if (!elements.getPackageOf(owner).isUnnamed()) {
      candidates.add(elements.getPackageOf(owner).getQualifiedName() + "." + name);
    }
    candidates.add(name);
    return candidates.stream()
        .map(elements::getTypeElement)
        .filter(type -> type != null && type.getKind() != ElementKind.ANNOTATION_TYPE)
        .findFirst();
  }
}
