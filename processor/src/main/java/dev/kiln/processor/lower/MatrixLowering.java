package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.TreePaths.child;
import static dev.kiln.processor.lower.TreePaths.unparenthesized;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.diag.KernelError;
import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Fragment;
import dev.kiln.processor.ir.MatrixOp;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Stmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.Element;

/**
 * Lowers the cooperative-matrix methods of {@code dev.kiln.Gpu} to {@link MatrixOp}s: a matrix
 * variable's declaration and assignments, and {@code Gpu.storeAccumulator} statements. Matrices are
 * values of local variables only; any other use is {@code kiln.matrix.use}.
 */
final class MatrixLowering {

  private final Trees trees;
  private final Scope scope;
  private final Expressions expressions;
  private final CallLowering calls;

  /** The element type each A and B fragment holds, from the loads and copies that assign it. */
  private final Map<Fragment, Fragment.Element> elements = new HashMap<>();

  MatrixLowering(Trees trees, Scope scope, Expressions expressions, CallLowering calls) {
    this.trees = trees;
    this.scope = scope;
    this.expressions = expressions;
    this.calls = calls;
  }

  /** {@code MatrixA a = <value>;}: a new fragment, assigned by {@code value}. */
  List<Stmt> declare(
      Element element, String name, Fragment.Use use, TreePath value, Tree declaration) {
    if (value == null) {
      throw new KernelError(declaration, Errors.matrixUse("declared with its value"));
    }
    return assign(scope.declareFragment(element, name, use), value);
  }

  /** The fragment a variable at {@code path} names, if it names one. */
  Optional<Fragment> fragment(TreePath path) {
    Element element = trees.getElement(unparenthesized(path));
    return element == null ? Optional.empty() : scope.fragment(element);
  }

  /**
   * {@code target = <value>}: a matrix method's result or another fragment. A matrix argument that
   * is itself a call goes to a fragment of its own first, in Java's order of evaluation.
   */
  List<Stmt> assign(Fragment target, TreePath value) {
    List<Stmt> statements = new ArrayList<>();
    assignInto(target, unparenthesized(value), statements);
    return statements;
  }

  private void assignInto(Fragment target, TreePath value, List<Stmt> statements) {
    MatrixOp op = operation(target, value, statements);
    statements.add(new Stmt.Matrix(op, expressions.site(value.getLeaf())));
  }

  /** {@code Gpu.storeAccumulator(c, values, offset, stride, layout);}. */
  List<Stmt> store(TreePath call) {
    List<TreePath> arguments = arguments(call);
    List<Stmt> statements = new ArrayList<>();
    MatrixOp store =
        new MatrixOp.Store(
            operand(arguments.get(0), Fragment.Use.ACCUMULATOR, statements),
            tileArray(arguments.get(1), call),
            index(arguments.get(2)),
            index(arguments.get(3)),
            columnMajor(arguments.get(4), call));
    statements.add(new Stmt.Matrix(store, expressions.site(call.getLeaf())));
    return statements;
  }

  private MatrixOp operation(Fragment target, TreePath value, List<Stmt> before) {
    Optional<Fragment> source = fragment(value);
    if (source.isPresent()) {
      if (elements.containsKey(source.get())) {
        holds(target, elements.get(source.get()), value);
      }
      return new MatrixOp.Copy(target, source.get());
    }
    String method =
        calls
            .gpuCall(value)
            .orElseThrow(
                () ->
                    new KernelError(
                        value.getLeaf(),
                        Errors.matrixUse(
                            "assigned the result of a Gpu matrix method or another matrix variable")));
    List<TreePath> arguments = arguments(value);
    return switch (method) {
      case "loadMatrixA", "loadMatrixB" -> {
        Fragment.Element element =
            Fragment.Element.valueOf(constantName(arguments.get(3), "element type", value));
        holds(target, element, arguments.get(3));
        yield new MatrixOp.Load(
            target,
            tileArray(arguments.get(0), value),
            index(arguments.get(1)),
            index(arguments.get(2)),
            columnMajor(arguments.get(4), value),
            element);
      }
      case "loadAccumulator" ->
          new MatrixOp.Load(
              target,
              tileArray(arguments.get(0), value),
              index(arguments.get(1)),
              index(arguments.get(2)),
              columnMajor(arguments.get(3), value),
              Fragment.Element.FLOAT);
      case "fillAccumulator" -> new MatrixOp.Fill(target, value(arguments.get(0)));
      case "multiplyAdd" -> {
        Fragment a = operand(arguments.get(0), Fragment.Use.A, before);
        Fragment b = operand(arguments.get(1), Fragment.Use.B, before);
        if (elements.get(a) != elements.get(b)) {
          throw new KernelError(
              value.getLeaf(),
              Errors.matrixElement(
                  "an A tile of " + elements.get(a) + " times a B tile of " + elements.get(b)));
        }
        yield new MatrixOp.MultiplyAdd(
            target, a, b, operand(arguments.get(2), Fragment.Use.ACCUMULATOR, before));
      }
      case "scaleAccumulator" -> {
        Fragment scaled = operand(arguments.get(0), Fragment.Use.ACCUMULATOR, before);
        yield new MatrixOp.Scale(target, scaled, value(arguments.get(1)));
      }
      case "addAccumulators" ->
          new MatrixOp.Add(
              target,
              operand(arguments.get(0), Fragment.Use.ACCUMULATOR, before),
              operand(arguments.get(1), Fragment.Use.ACCUMULATOR, before));
      default ->
          throw new KernelError(
              value.getLeaf(),
              Errors.matrixUse(
                  "assigned the result of a Gpu matrix method or another matrix variable"));
    };
  }

  /**
   * A matrix argument: a matrix variable, or a matrix method's call, which {@code before} gets the
   * statements of, into a new fragment (javac has checked the types).
   */
  private Fragment operand(TreePath argument, Fragment.Use use, List<Stmt> before) {
    TreePath inner = unparenthesized(argument);
    Optional<Fragment> variable = fragment(inner);
    if (variable.isEmpty() && calls.gpuCall(inner).isPresent()) {
      Fragment temporary = Fragment.fresh(calls.gpuCall(inner).get() + "Result", use);
      assignInto(temporary, inner, before);
      return temporary;
    }
    Fragment fragment =
        variable.orElseThrow(
            () ->
                new KernelError(
                    argument.getLeaf(),
                    Errors.matrixUse(
                        "passed to a Gpu matrix method as a variable or a matrix method's result")));
    if (fragment.use() != use) {
      throw new IllegalStateException(
          "javac let a " + fragment.use() + " matrix stand for a " + use + " one");
    }
    return fragment;
  }

  /**
   * Records that A or B fragment {@code target} holds {@code element}, which {@code where} gives. A
   * matrix variable holds one element type ({@code kiln.matrix.element}): on Vulkan it is part of
   * the variable's type.
   */
  private void holds(Fragment target, Fragment.Element element, TreePath where) {
    Fragment.Element before = elements.putIfAbsent(target, element);
    if (before != null && before != element) {
      throw new KernelError(
          where.getLeaf(),
          Errors.matrixElement(
              "a tile of "
                  + element
                  + " assigned to "
                  + target.name()
                  + ", which holds "
                  + before));
    }
  }

  private Expr index(TreePath argument) {
    return expressions.expr(argument, PrimType.INT);
  }

  private Expr value(TreePath argument) {
    return expressions.expr(argument, PrimType.FLOAT);
  }

  /**
   * The array a tile lies in: a buffer parameter, or workgroup memory holding the elements as the
   * tile has them (float16 bits in {@code Gpu.sharedPackedShorts}, floats in {@code
   * Gpu.sharedFloats}).
   */
  private ArrayDecl tileArray(TreePath argument, TreePath call) {
    ArrayRef named = expressions.array(argument);
    if (named instanceof ArrayRef.Chosen || named instanceof ArrayRef.Rows) {
      throw new KernelError(argument.getLeaf(), Errors.matrixMemory(method(call)));
    }
    ArrayDecl array = named.decl();
    boolean usable =
        switch (array) {
          case BufferDecl buffer -> true;
          case SharedArray shared -> shared.element() == PrimType.FLOAT || shared.packed();
          default -> false;
        };
    if (!usable) {
      throw new KernelError(argument.getLeaf(), Errors.matrixMemory(method(call)));
    }
    return array;
  }

  /** Whether the layout argument is {@code MatrixLayout.COLUMN_MAJOR}; it must be a constant. */
  private boolean columnMajor(TreePath argument, TreePath call) {
    return constantName(argument, "layout", call).equals("COLUMN_MAJOR");
  }

  private String constantName(TreePath argument, String what, TreePath call) {
    return MatrixTypes.constant(trees, scope, argument)
        .orElseThrow(
            () -> new KernelError(argument.getLeaf(), Errors.matrixConstant(what, method(call))));
  }

  private String method(TreePath call) {
    return calls.gpuCall(call).orElseThrow();
  }

  private static List<TreePath> arguments(TreePath call) {
    MethodInvocationTree invocation = (MethodInvocationTree) call.getLeaf();
    return invocation.getArguments().stream()
        .map(argument -> child(call, (ExpressionTree) argument))
        .toList();
  }
}
