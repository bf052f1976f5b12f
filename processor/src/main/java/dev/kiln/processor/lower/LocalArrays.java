package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.TreePaths.child;
import static dev.kiln.processor.lower.TreePaths.unparenthesized;

import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.diag.KernelError;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.model.SignatureReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;

/**
 * Local array declarations: workgroup memory ({@code Gpu.sharedFloats(256)}) and private arrays
 * ({@code new float[8]}).
 */
final class LocalArrays {
  private final Scope scope;
  private final Expressions expressions;
  private final CallLowering calls;
  private final BufferAliases aliases;

  LocalArrays(Scope scope, Expressions expressions, CallLowering calls, BufferAliases aliases) {
    this.scope = scope;
    this.expressions = expressions;
    this.calls = calls;
    this.aliases = aliases;
  }

  /**
   * {@code float[] tile = Gpu.sharedFloats(256);} declares workgroup memory (at the top of the
   * kernel body with a constant length, as {@code check.ArrayDeclarations} demands), and {@code new
   * float[8]} or an initializer a private array; {@code float[] x = inp;} (or {@code c ? a : b}, or
   * no value) a variable that names buffers ({@link BufferAliases}); any other local array is not
   * supported.
   */
  List<Stmt> declare(
      TreePath path, VariableTree variable, VariableElement element, ArrayType type) {
    TreePath initializer =
        variable.getInitializer() == null
            ? null
            : unparenthesized(child(path, variable.getInitializer()));
    if (initializer != null
        && initializer.getLeaf() instanceof com.sun.source.tree.NewArrayTree creation) {
      return privateArray(initializer, creation, variable, element, type);
    }
    if (type.getComponentType().getKind().isPrimitive()
        && (initializer == null
            || initializer.getLeaf() instanceof com.sun.source.tree.IdentifierTree
            || initializer.getLeaf() instanceof com.sun.source.tree.ConditionalExpressionTree)) {
      return aliases.declare(path, variable, element);
    }
    Optional<String> intrinsic =
        initializer == null ? Optional.empty() : calls.gpuCall(initializer);
    if (intrinsic.isEmpty() || !CallLowering.isSharedAllocation(intrinsic.get())) {
      scope.reject(element);
      throw new KernelError(variable, Errors.unsupportedLocalArray(variable.getName()));
    }
    com.sun.source.tree.MethodInvocationTree call =
        (com.sun.source.tree.MethodInvocationTree) initializer.getLeaf();
    Expr length =
        Constants.fold(
            expressions.expr(child(initializer, call.getArguments().getFirst()), PrimType.INT));
    PrimType elementType = SignatureReader.primType(type.getComponentType()).orElseThrow();
    SharedArray array =
        new SharedArray(
            scope.sharedName(variable.getName().toString()),
            elementType,
            length,
            expressions.site(call),
            intrinsic.get().equals(SharedArray.PACKED_SHORTS));
    scope.share(element, array);
    return List.of(new Stmt.DeclareShared(array));
  }

  /**
   * {@code new float[LENGTH]} (zeroed, as in Java, each time the declaration runs) or an array
   * initializer: an array of the invocation's own; {@code new float[R][C]} or {@code new
   * float[D][R][C]}, with constant lengths, one of two or three dimensions, held flat.
   */
  private List<Stmt> privateArray(
      TreePath path,
      com.sun.source.tree.NewArrayTree creation,
      VariableTree variable,
      VariableElement element,
      ArrayType type) {
    scope.reject(element); // until it is declared below
    int dimensions = 1;
    ArrayType innermost = type;
    while (innermost.getComponentType() instanceof ArrayType inner) {
      innermost = inner;
      dimensions++;
    }
    Optional<PrimType> elementType = SignatureReader.primType(innermost.getComponentType());
    if (elementType.isEmpty()) {
      throw new KernelError(variable, Errors.unsupportedLocalArray(variable.getName()));
    }
    if (dimensions > 1) {
      return rows(path, creation, variable, element, elementType.get(), dimensions);
    }
    List<Expr> values = new ArrayList<>();
    Expr length;
    if (creation.getInitializers() != null) {
      for (com.sun.source.tree.ExpressionTree value : creation.getInitializers()) {
        values.add(expressions.expr(child(path, value), elementType.get()));
      }
      length = new Expr.IntConst(values.size());
    } else if (creation.getDimensions().size() == 1) {
      length =
          Constants.fold(
              expressions.expr(child(path, creation.getDimensions().getFirst()), PrimType.INT));
    } else {
      throw new KernelError(variable, Errors.unsupportedLocalArray(variable.getName()));
    }
    PrivateArray array =
        scope.declarePrivate(
            element,
            variable.getName().toString(),
            elementType.get(),
            length,
            expressions.site(creation));
    scope.accept(element);
    List<Stmt> statements = new ArrayList<>();
    statements.add(new Stmt.ClearArray(array));
    for (int i = 0; i < values.size(); i++) {
      statements.add(
          new Stmt.Store(array, new Expr.IntConst(i), values.get(i), expressions.site(creation)));
    }
    return statements;
  }

  /**
   * {@code new float[R][C]} or {@code new float[D][R][C]}: every length given, each a positive
   * constant; a flat private array of their product, zeroed each time the declaration runs.
   */
  private List<Stmt> rows(
      TreePath path,
      com.sun.source.tree.NewArrayTree creation,
      VariableTree variable,
      VariableElement element,
      PrimType elementType,
      int dimensions) {
    if (dimensions > 3
        || creation.getInitializers() != null
        || creation.getDimensions().size() != dimensions) {
      throw new KernelError(variable, Errors.unsupportedLocalArray(variable.getName()));
    }
    List<Integer> extents = new ArrayList<>();
    long elements = 1;
    for (com.sun.source.tree.ExpressionTree dimension : creation.getDimensions()) {
      if (!(Constants.fold(expressions.expr(child(path, dimension), PrimType.INT))
              instanceof Expr.IntConst(int extent))
          || extent <= 0) {
        throw new KernelError(dimension, Errors.privateLength());
      }
      extents.add(extent);
      elements = Math.min(elements * extent, Integer.MAX_VALUE);
    }
    PrivateArray array =
        scope.declarePrivate(
            element,
            variable.getName().toString(),
            elementType,
            new Expr.IntConst((int) elements),
            expressions.site(creation));
    scope.bindArray(element, ArrayRef.Rows.of(array, extents));
    scope.accept(element);
    return List.of(new Stmt.ClearArray(array));
  }
}
