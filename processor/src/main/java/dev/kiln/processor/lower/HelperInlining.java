package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.TreePaths.child;
import static dev.kiln.processor.lower.TreePaths.unparenthesized;

import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.diag.KernelError;
import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.model.SignatureReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;

/**
 * Inlines calls of helpers: static methods compiled from source. One of the kernel's own top-level
 * class, whose attributed trees javac holds now, is inlined from them: a helper whose body is
 * {@code return e;} becomes {@code e} inside the caller's expression ({@link #inlinePure}); any
 * other becomes statements in place of its call ({@link #inlineStatements}). One of another class
 * becomes a call that linking resolves ({@link #callOtherClass}). Either way its scalar parameters
 * take the arguments, lowered in the caller and each evaluated once, and its array parameters name
 * the caller's arrays; a helper that calls itself, directly or not, is refused.
 */
final class HelperInlining {
  private final Trees trees;
  private final Scope scope;
  private final ExecutableElement kernel;
  private final Attribution attribution;
  private final Expressions expressions;

  HelperInlining(
      Trees trees,
      Scope scope,
      ExecutableElement kernel,
      Attribution attribution,
      Expressions expressions) {
    this.trees = trees;
    this.scope = scope;
    this.kernel = kernel;
    this.attribution = attribution;
    this.expressions = expressions;
  }

  /** The helper called at {@code path}, if it is a call of one (in parentheses or not). */
  Optional<ExecutableElement> helperCall(TreePath path) {
    path = unparenthesized(path);
    return path.getLeaf() instanceof com.sun.source.tree.MethodInvocationTree
            && trees.getElement(path) instanceof ExecutableElement method
            && isHelper(method)
        ? Optional.of(method)
        : Optional.empty();
  }

  /**
   * Whether {@code method} is a helper a kernel may call: a static method compiled from source in
   * this run, with a body. One of the kernel's own top-level class is inlined from its tree; one of
   * another class becomes a {@link Stmt.Call} ({@link #callOtherClass}), as javac analyzes that
   * class apart from this one.
   */
  boolean isHelper(ExecutableElement method) {
    Set<Modifier> modifiers = method.getModifiers();
    if (!modifiers.contains(Modifier.STATIC) || modifiers.contains(Modifier.NATIVE)) {
      return false;
    }
    return inKernelClass(method)
        ? trees.getTree(method) instanceof MethodTree tree && tree.getBody() != null
        : attribution.compiles((TypeElement) topLevel(method));
  }

  /**
   * Whether {@code method} is declared in the kernel's own top-level class, whose trees javac holds
   * now.
   */
  boolean inKernelClass(ExecutableElement method) {
    return topLevel(method).equals(topLevel(kernel));
  }

  /**
   * A call of a helper of another class: its arguments lowered here, in order, and a {@link
   * Stmt.Call} that linking replaces by the helper's body ({@link HelperLinker}).
   */
  List<Stmt> callOtherClass(TreePath call, ExecutableElement helper, Local result) {
    TreePath at = unparenthesized(call);
    List<Expr> arguments = new ArrayList<>();
    List<ArrayDecl> arrays = new ArrayList<>();
    bindings(
            at,
            helper,
            (parameter, array) -> {
              if (array instanceof ArrayRef.Chosen) {
                Tree argument =
                    ((MethodInvocationTree) at.getLeaf())
                        .getArguments()
                        .get(helper.getParameters().indexOf(parameter));
                throw new KernelError(
                    argument,
                    BufferAliases.choosing(
                        argument, "a helper of another class (" + helper.getSimpleName() + ")"));
              }
              if (array instanceof ArrayRef.Rows) {
                throw new KernelError(
                    at.getLeaf(),
                    Errors.unsupportedExpression(
                        "passing a private array of two or three dimensions to a helper of another"
                            + " class"));
              }
              arrays.add(array.decl());
            },
            (parameter, value) -> arguments.add(value))
        .forEach(Runnable::run);
    TypeElement owner = (TypeElement) topLevel(helper);
    return List.of(
        new Stmt.Call(
            Library.signature(helper),
            owner.getQualifiedName().toString(),
            arguments,
            arrays,
            result,
            expressions.site(at.getLeaf())));
  }

  static Element topLevel(Element element) {
    Element current = element;
    while (!(current.getEnclosingElement() instanceof javax.lang.model.element.PackageElement)) {
      current = current.getEnclosingElement();
    }
    return current;
  }

  /**
   * Binds the arguments of a call of {@code helper} to its parameters, lowered in the caller: the
   * arguments are lowered now, in order, and each binding is made when its runnable runs.
   */
  private List<Runnable> bindings(
      TreePath callPath,
      ExecutableElement helper,
      BiConsumer<Element, ArrayRef> array,
      BiConsumer<Element, Expr> scalar) {
    MethodInvocationTree call = (MethodInvocationTree) callPath.getLeaf();
    List<Runnable> bindings = new java.util.ArrayList<>();
    for (int i = 0; i < call.getArguments().size(); i++) {
      javax.lang.model.element.VariableElement parameter = helper.getParameters().get(i);
      Tree argumentTree = call.getArguments().get(i);
      TreePath argument = child(callPath, argumentTree);
      Optional<String> setting = MatrixTypes.setting(parameter.asType());
      if (parameter.asType() instanceof ArrayType) {
        ArrayRef named;
        try {
          named = expressions.array(argument);
        } catch (KernelError notAnArray) {
          throw new KernelError(argumentTree, Errors.helperArray(parameter.getSimpleName()));
        }
        if (named instanceof ArrayRef.Rows rows && rows.depth() > 0) {
          throw new KernelError(argumentTree, Errors.helperArray(parameter.getSimpleName()));
        }
        bindings.add(() -> array.accept(parameter, named));
      } else if (setting.isPresent()) {
        String type = setting.get();
        String constant =
            inKernelClass(helper)
                ? MatrixTypes.constant(trees, scope, argument).orElse(null)
                : null; // linking binds values, not constants
        if (constant == null) {
          throw new KernelError(
              argumentTree, Errors.helperSetting(type, parameter.getSimpleName()));
        }
        bindings.add(() -> scope.bindSetting(parameter, constant));
      } else if (MatrixTypes.use(parameter.asType()).isPresent()) {
        throw new KernelError(
            argumentTree,
            Errors.matrixUse(
                "passed to the Gpu matrix methods, not to a helper such as "
                    + helper.getSimpleName()
                    + ", whose parameters are primitive values and arrays"));
      } else {
        PrimType type =
            SignatureReader.primType(parameter.asType())
                .orElseThrow(() -> UnsupportedTypes.error(argumentTree, parameter.asType()));
        Expr value = expressions.expr(argument, type);
        bindings.add(() -> scalar.accept(parameter, value));
      }
    }
    return bindings;
  }

  /**
   * A helper whose body is {@code return e;}: {@code e}, its parameters read from locals that hold
   * the arguments, each evaluated once, in order, as Java evaluates them (a constant or a local is
   * read in place).
   */
  Expr inlinePure(TreePath callPath, ExecutableElement helper, ReturnTree ret) {
    List<Element> parameters = new ArrayList<>();
    List<Expr> arguments = new ArrayList<>();
    List<Runnable> bindings =
        bindings(
            callPath,
            helper,
            scope::bindArray,
            (parameter, value) -> {
              parameters.add(parameter);
              arguments.add(value);
            });
    TreePath body = trees.getPath(helper);
    if (!scope.enterHelper(helper, body.getCompilationUnit())) {
      throw new KernelError(callPath.getLeaf(), Errors.helperRecursion(helper.getSimpleName()));
    }
    try {
      bindings.forEach(Runnable::run);
      PrimType result =
          SignatureReader.primType(helper.getReturnType())
              .orElseThrow(
                  () -> UnsupportedTypes.error(callPath.getLeaf(), helper.getReturnType()));
      MethodTree tree = (MethodTree) body.getLeaf();
      return Library.evaluatedOnce(
          arguments,
          reads -> {
            for (int k = 0; k < reads.size(); k++) {
              scope.bindArgument(parameters.get(k), reads.get(k));
            }
            return expressions.expr(
                child(child(child(body, tree.getBody()), ret), ret.getExpression()), result);
          });
    } catch (KernelError error) {
      throw error.in(body.getCompilationUnit());
    } finally {
      scope.exitHelper();
    }
  }

  /**
   * A helper's body in place of its call: its scalar parameters become locals set from the
   * arguments (a constant argument of a parameter the helper never assigns is read in place, so
   * that a branch on it folds: {@link ConstantBranches}), its array parameters name the caller's
   * arrays, and {@code lowerBody} lowers the helper's method (its path given) to the statements
   * that follow those assignments.
   */
  List<Stmt> inlineStatements(
      TreePath call, ExecutableElement helper, Function<TreePath, List<Stmt>> lowerBody) {
    TreePath at = unparenthesized(call);
    List<Stmt> statements = new ArrayList<>();
    TreePath path = trees.getPath(helper);
    Set<Element> assigned =
        AssignedVariables.in(trees, path.getCompilationUnit(), (MethodTree) path.getLeaf());
    List<Runnable> bindings =
        bindings(
            at,
            helper,
            scope::bindArray,
            (parameter, value) -> {
              if (value.isConstant() && !assigned.contains(parameter)) {
                scope.bindArgument(parameter, value);
                return;
              }
              Local local =
                  scope.declare(parameter, parameter.getSimpleName().toString(), value.type());
              statements.add(new Stmt.Assign(local, value));
            });
    if (!scope.enterHelper(helper, path.getCompilationUnit())) {
      throw new KernelError(at.getLeaf(), Errors.helperRecursion(helper.getSimpleName()));
    }
    try {
      bindings.forEach(Runnable::run);
      statements.addAll(lowerBody.apply(path));
    } catch (KernelError error) {
      throw error.in(path.getCompilationUnit());
    } finally {
      scope.exitHelper();
    }
    return statements;
  }
}
