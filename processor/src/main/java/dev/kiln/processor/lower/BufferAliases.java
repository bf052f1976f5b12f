package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.TreePaths.child;
import static dev.kiln.processor.lower.TreePaths.unparenthesized;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import dev.kiln.processor.diag.Diagnostic;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.diag.KernelError;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;

/**
 * Local array variables that name buffer parameters, as CUDA ports re-point a row pointer: {@code
 * float[] x = inp; … x = out;}, {@code x = c ? a : b}. Each is tracked in program order while the
 * body is lowered: the buffers it may name here are one after an assignment, the union of both
 * sides after an {@code if}, and every buffer its method ever gives it inside and after a loop,
 * switch or labelled statement that gives it one. Where it may name one buffer, an access through
 * it is that buffer's, as if written so; where several, a selector local (the key of the one named)
 * chooses between accesses of each ({@link ArrayRef.Chosen}). Access inference, bounds checks (each
 * buffer's own length), fusion and split launches then see plain accesses of buffers.
 */
final class BufferAliases {
  private final Trees trees;
  private final Scope scope;
  private final Expressions expressions;

  BufferAliases(Trees trees, Scope scope, Expressions expressions) {
    this.trees = trees;
    this.scope = scope;
    this.expressions = expressions;
  }

  /**
   * {@code float[] x = value;} (or no value) where every value the method gives {@code x} names
   * buffers: declares it, and assigns the first.
   */
  List<Stmt> declare(TreePath path, VariableTree variable, Element element) {
    scope.reject(element); // until it is declared: its uses are not reported again
    List<TreePath> values = valuesOf(path, element);
    Set<BufferDecl> ever = new LinkedHashSet<>();
    boolean chooses = false;
    for (TreePath value : values) {
      ever.addAll(everNamed(value, element, new LinkedHashSet<>(List.of(element))));
      chooses |= unparenthesized(value).getLeaf() instanceof ConditionalExpressionTree;
    }
    scope.accept(element);
    Local selector =
        ever.size() > 1 || chooses
            ? scope.temporary(variable.getName() + "$names", PrimType.INT)
            : null;
    BufferAlias alias = new BufferAlias(element, List.copyOf(ever), selector);
    scope.declareAlias(element, alias);
    return variable.getInitializer() == null
        ? List.of()
        : assign(alias, child(path, variable.getInitializer()));
  }

  /**
   * {@code kiln.unsupported.alias} for {@code operation} (an atomic, a copy, a call) through a
   * variable that may name several buffers here.
   */
  static Diagnostic choosing(Object variable, String operation) {
    return Errors.unsupportedAlias(
        variable,
        "may name one of several buffers here, and " + operation + " takes one array",
        "call it on each buffer, in the branch that chose it ('if (c) { ... a ... } else { ... b"
            + " ... }')");
  }

  /** {@code x = value;}: {@code x} names what {@code value} names, from here on. */
  List<Stmt> assign(BufferAlias alias, TreePath value) {
    Set<BufferDecl> named = namedNow(value, alias.element());
    List<Stmt> statements =
        alias.selector() == null
            ? List.of()
            : List.of(new Stmt.Assign(alias.selector(), key(alias, value)));
    alias.name(named);
    return statements;
  }

  /** What every variable names here, to come back to. */
  Map<BufferAlias, Set<BufferDecl>> state() {
    Map<BufferAlias, Set<BufferDecl>> state = new IdentityHashMap<>();
    scope.aliases().forEach(alias -> state.put(alias, alias.names()));
    return state;
  }

  /** Back to {@code state}. */
  void restore(Map<BufferAlias, Set<BufferDecl>> state) {
    state.forEach(BufferAlias::name);
  }

  /** Joins {@code other}, the state at the end of another path, into the current one. */
  void join(Map<BufferAlias, Set<BufferDecl>> other) {
    other.forEach(
        (alias, named) -> {
          Set<BufferDecl> both = new LinkedHashSet<>(alias.names());
          both.addAll(named);
          alias.name(both);
        });
  }

  /**
   * Before and after a loop, switch or labelled statement: a variable given a buffer inside may
   * name any buffer its method gives it.
   */
  void widenAssignedIn(TreePath statement) {
    Map<Element, BufferAlias> visible = scope.aliasesByElement();
    if (visible.isEmpty()) {
      return;
    }
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitAssignment(AssignmentTree assignment, Void unused) {
        BufferAlias alias =
            visible.get(trees.getElement(new TreePath(getCurrentPath(), assignment.getVariable())));
        if (alias != null) {
          Set<BufferDecl> all = new LinkedHashSet<>(alias.names());
          all.addAll(alias.ever());
          alias.name(all);
        }
        return super.visitAssignment(assignment, null);
      }
    }.scan(statement, null);
  }

  /** The values the method gives {@code element}: its initializer, then each assignment's. */
  private List<TreePath> valuesOf(TreePath declaration, Element element) {
    TreePath method = declaration;
    while (method != null && !(method.getLeaf() instanceof MethodTree)) {
      method = method.getParentPath();
    }
    List<TreePath> values = new ArrayList<>();
    new TreePathScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree variable, Void unused) {
        if (variable.getInitializer() != null
            && element.equals(trees.getElement(getCurrentPath()))) {
          values.add(new TreePath(getCurrentPath(), variable.getInitializer()));
        }
        return super.visitVariable(variable, null);
      }

      @Override
      public Void visitAssignment(AssignmentTree assignment, Void unused) {
        if (element.equals(
            trees.getElement(new TreePath(getCurrentPath(), assignment.getVariable())))) {
          for (TreePath up = getCurrentPath(); up != null; up = up.getParentPath()) {
            if (up.getLeaf().getKind() == Tree.Kind.SWITCH_EXPRESSION
                || up.getLeaf().getKind() == Tree.Kind.CONDITIONAL_EXPRESSION
                || up.getLeaf().getKind() == Tree.Kind.CONDITIONAL_AND
                || up.getLeaf().getKind() == Tree.Kind.CONDITIONAL_OR) {
              throw new KernelError(
                  assignment,
                  Errors.unsupportedAlias(
                      element.getSimpleName(),
                      "is given a buffer inside an expression that may skip it",
                      "give it the buffer in a statement of its own: '"
                          + element.getSimpleName()
                          + " = "
                          + assignment.getExpression()
                          + ";'"));
            }
          }
          values.add(new TreePath(getCurrentPath(), assignment.getExpression()));
        }
        return super.visitAssignment(assignment, null);
      }
    }.scan(method == null ? declaration : method, null);
    return values;
  }

  /**
   * Every buffer {@code value} may ever name: a buffer, either side of a conditional, or what its
   * method ever gives another such variable ({@code visiting}: those being read, against cycles).
   */
  private Set<BufferDecl> everNamed(TreePath value, Element variable, Set<Element> visiting) {
    value = unparenthesized(value);
    if (value.getLeaf() instanceof ConditionalExpressionTree conditional) {
      Set<BufferDecl> both =
          everNamed(child(value, conditional.getTrueExpression()), variable, visiting);
      both.addAll(everNamed(child(value, conditional.getFalseExpression()), variable, visiting));
      return both;
    }
    Element element = trees.getElement(value);
    BufferAlias declared = element == null ? null : scope.aliasesByElement().get(element);
    if (declared != null) {
      return new LinkedHashSet<>(declared.ever());
    }
    if (element != null
        && element.getKind() == ElementKind.LOCAL_VARIABLE
        && scope
            .arrayParameter(element)
            .isEmpty()) { // one declared further on: what its method gives it
      Set<BufferDecl> named = new LinkedHashSet<>();
      if (visiting.add(element)) {
        for (TreePath other : valuesOf(value, element)) {
          named.addAll(everNamed(other, element, visiting));
        }
      }
      return named;
    }
    return buffers(value, variable);
  }

  /** The buffers {@code value} may name here. */
  private Set<BufferDecl> namedNow(TreePath value, Element variable) {
    value = unparenthesized(value);
    if (value.getLeaf() instanceof ConditionalExpressionTree conditional) {
      Set<BufferDecl> both = namedNow(child(value, conditional.getTrueExpression()), variable);
      both.addAll(namedNow(child(value, conditional.getFalseExpression()), variable));
      return both;
    }
    return buffers(value, variable);
  }

  /** The buffers an array expression that is no conditional may name here; else an error. */
  private Set<BufferDecl> buffers(TreePath value, Element variable) {
    return switch (expressions.array(value)) {
      case ArrayRef.Buffer buffer -> new LinkedHashSet<>(List.of(buffer.decl()));
      case ArrayRef.Chosen chosen -> new LinkedHashSet<>(chosen.options());
      default ->
          throw new KernelError(
              value.getLeaf(),
              Errors.unsupportedAlias(
                  variable.getSimpleName(),
                  "names '" + value.getLeaf() + "', which is no buffer parameter",
                  "index '" + value.getLeaf() + "' itself: a local array variable names buffers"));
    };
  }

  /** The key, among {@code alias}'s, of the buffer {@code value} names here. */
  private Expr key(BufferAlias alias, TreePath value) {
    value = unparenthesized(value);
    if (value.getLeaf() instanceof ConditionalExpressionTree conditional) {
      return new Expr.Conditional(
          expressions.expr(child(value, conditional.getCondition()), PrimType.BOOLEAN),
          key(alias, child(value, conditional.getTrueExpression())),
          key(alias, child(value, conditional.getFalseExpression())));
    }
    return switch (expressions.array(value)) {
      case ArrayRef.Buffer buffer -> new Expr.IntConst(alias.ever().indexOf(buffer.decl()));
      case ArrayRef.Chosen chosen ->
          chosen.choose(option -> new Expr.IntConst(alias.ever().indexOf(option)));
      default -> throw new IllegalStateException("not a buffer: " + value.getLeaf());
    };
  }
}
