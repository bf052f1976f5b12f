package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.TreePaths.child;
import static dev.kiln.processor.lower.TreePaths.unparenthesized;

import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.diag.KernelError;
import dev.kiln.processor.ir.AtomicOp;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.model.SignatureReader;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;

/**
 * Lowers method calls: the {@code dev.kiln.Gpu} intrinsics (ids, atomics, workgroup memory), the
 * library methods of {@link Library} ({@code Math}, {@code Integer}, ...), and calls of helpers,
 * which {@link HelperInlining} inlines; everything else is an error naming why the method cannot be
 * called. Arguments are lowered through {@link Expressions}, the expression lowering, the one root
 * of the expression recursion.
 */
final class CallLowering {
  static final String GPU_CLASS = "dev.kiln.Gpu";
  private static final String ARRAYCOPY =
      "java.lang.System.arraycopy(java.lang.Object,int,java.lang.Object,int,int)";

  /** The largest cluster of a clustered subgroup reduction: Vulkan's largest subgroup. */
  private static final int MAX_CLUSTER = 128;

  private final Trees trees;
  private final Scope scope;
  private final Expressions expressions;
  private final HelperInlining helpers;
  private final EmbeddedStatements embedded;

  CallLowering(
      Trees trees,
      Scope scope,
      Expressions expressions,
      HelperInlining helpers,
      EmbeddedStatements embedded) {
    this.embedded = embedded;
    this.trees = trees;
    this.scope = scope;
    this.expressions = expressions;
    this.helpers = helpers;
  }

  /**
   * The unsupported calls among the arguments of a call that is itself an error, so that one
   * statement reports each of them ({@code Math.log(1 + Math.exp(x))} reports both).
   */
  List<KernelError> argumentErrors(TreePath call) {
    List<KernelError> errors = new java.util.ArrayList<>();
    for (ExpressionTree argument : ((MethodInvocationTree) call.getLeaf()).getArguments()) {
      try {
        expressions.expr(child(call, argument));
      } catch (
          KernelError
              error) { // calls only: an argument's type or use is what the outer call's error is
        // about
        if (error.tree() instanceof MethodInvocationTree) {
          errors.add(error);
        }
      } catch (AlreadyReported reported) { // javac's or Kiln's own error there is out already
      }
    }
    return errors;
  }

  /** Throws for {@code Math.sqrt(x)} and the like, which have a {@code Gpu} float counterpart. */
  void mathInDouble(TreePath path) {
    if (trees.getElement(path) instanceof ExecutableElement method
        && ((TypeElement) method.getEnclosingElement())
            .getQualifiedName()
            .contentEquals("java.lang.Math")
        && method.getReturnType().getKind() == javax.lang.model.type.TypeKind.DOUBLE
        && !Library.has(Library.signature(method))
        && Library.has(
            GPU_CLASS
                + "."
                + method.getSimpleName()
                + method.getParameters().stream()
                    .map(p -> "float")
                    .collect(java.util.stream.Collectors.joining(",", "(", ")")))) {
      throw new KernelError(path.getLeaf(), Errors.mathDouble(method.getSimpleName()));
    }
  }

  /** The name of the {@code dev.kiln.Gpu} method called at {@code path}, if it is a call of one. */
  Optional<String> gpuCall(TreePath path) {
    path = unparenthesized(path);
    Tree tree = path.getLeaf();
    if (!(tree instanceof MethodInvocationTree)
        || !(trees.getElement(path) instanceof ExecutableElement method)) {
      return Optional.empty();
    }
    TypeElement owner = (TypeElement) method.getEnclosingElement();
    return owner.getQualifiedName().contentEquals(GPU_CLASS)
        ? Optional.of(method.getSimpleName().toString())
        : Optional.empty();
  }

  static Optional<AtomicOp> atomicOp(String intrinsic) {
    return Arrays.stream(AtomicOp.values())
        .filter(op -> op.intrinsic().equals(intrinsic))
        .findFirst();
  }

  /** {@code Gpu.barrier()}, a statement of its own. */
  static final String BARRIER = "barrier";

  /** {@code Gpu.storeAccumulator(...)}, a statement of its own. */
  static final String STORE_ACCUMULATOR = "storeAccumulator";

  /**
   * The {@code dev.kiln.Gpu} methods that are statements of their own ({@code
   * ExpressionStatements}).
   */
  static final Set<String> STATEMENTS = Set.of(BARRIER, STORE_ACCUMULATOR);

  /**
   * Whether {@code dev.kiln.Gpu}'s method {@code name} is lowered other than by a row of {@link
   * Library}: an atomic, a workgroup array's declaration, an id, a statement or a matrix operation.
   */
  static boolean lowersOutsideLibrary(String name) {
    return atomicOp(name).isPresent()
        || isSharedAllocation(name)
        || STATEMENTS.contains(name)
        || MatrixTypes.OPERATIONS.contains(name)
        || Arrays.stream(Builtin.values()).anyMatch(builtin -> builtin.intrinsic().equals(name));
  }

  static boolean isSharedAllocation(String intrinsic) {
    return intrinsic.equals(SharedArray.PACKED_SHORTS)
        || Arrays.stream(PrimType.values())
            .anyMatch(element -> SharedArray.intrinsic(element).equals(intrinsic));
  }

  /**
   * The atomic update called at {@code path} (a {@code Gpu.atomic*} call), its previous value going
   * to {@code result} (null to drop it).
   */
  Stmt.Atomic atomic(TreePath path, Local result) {
    path = unparenthesized(path);
    MethodInvocationTree call = (MethodInvocationTree) path.getLeaf();
    String name = gpuCall(path).orElseThrow();
    AtomicOp op = atomicOp(name).orElseThrow();
    List<? extends ExpressionTree> args = call.getArguments();
    ArrayRef array = expressions.array(child(path, args.getFirst()));
    PrimType element = array.element();
    if (array instanceof ArrayRef.Chosen) {
      throw new KernelError(
          args.getFirst(), BufferAliases.choosing(args.getFirst(), "Gpu." + name));
    }
    if (array.decl() instanceof PrivateArray) {
      throw new KernelError(args.getFirst(), Errors.atomicTarget(name));
    }
    Expr index = expressions.expr(child(path, args.get(1)), PrimType.INT);
    Expr value = expressions.expr(child(path, args.getLast()), element);
    Expr expected =
        op == AtomicOp.COMPARE_EXCHANGE
            ? expressions.expr(child(path, args.get(2)), element)
            : null;
    return new Stmt.Atomic(
        result, op, array.decl(), index, value, expected, expressions.site(call));
  }

  /** Whether the call at {@code path} is {@code System.arraycopy}. */
  boolean isArraycopy(TreePath path) {
    return trees.getElement(unparenthesized(path)) instanceof ExecutableElement method
        && Library.signature(method).equals(ARRAYCOPY);
  }

  /**
   * {@code System.arraycopy(source, sourceIndex, target, targetIndex, length)}: arrays of one
   * element type, and a constant length of at most {@link Stmt.Copy#MOST_BYTES} bytes.
   */
  Stmt.Copy arraycopy(TreePath path) {
    path = unparenthesized(path);
    MethodInvocationTree call = (MethodInvocationTree) path.getLeaf();
    List<? extends ExpressionTree> args = call.getArguments();
    ArrayRef source = expressions.array(child(path, args.get(0)));
    Expr sourceIndex = expressions.expr(child(path, args.get(1)), PrimType.INT);
    ArrayRef target = expressions.array(child(path, args.get(2)));
    Expr targetIndex = expressions.expr(child(path, args.get(3)), PrimType.INT);
    Expr length = Constants.fold(expressions.expr(child(path, args.get(4)), PrimType.INT));
    for (int side : new int[] {0, 2}) {
      ArrayRef copied = side == 0 ? source : target;
      if (copied instanceof ArrayRef.Chosen) {
        throw new KernelError(
            args.get(side), BufferAliases.choosing(args.get(side), "System.arraycopy"));
      }
      if (copied instanceof ArrayRef.Rows) {
        throw new KernelError(
            args.get(side),
            Errors.unsupportedExpression(
                "System.arraycopy of a private array of two or three dimensions"));
      }
    }
    if (source.element() != target.element()) {
      throw new KernelError(
          args.get(2),
          Errors.copyTypes(
              args.get(0).toString(),
              source.element().javaName(),
              args.get(2).toString(),
              target.element().javaName()));
    }
    int most = Stmt.Copy.longest(source.element());
    if (!(length instanceof Expr.IntConst(int n)) || n < 1 || n > most) {
      throw new KernelError(
          args.get(4),
          Errors.copyLength(most, Stmt.Copy.MOST_BYTES, source.element().javaName(), args.get(4)));
    }
    return new Stmt.Copy(
        source.decl(), sourceIndex, target.decl(), targetIndex, n, expressions.site(call));
  }

  Expr call(TreePath path) {
    MethodInvocationTree call = (MethodInvocationTree) path.getLeaf();
    if (!(trees.getElement(path) instanceof ExecutableElement method)) {
      throw new AlreadyReported(); // javac found no method to call (wrong arguments, say) and
      // reported it
    }
    TypeElement owner = (TypeElement) method.getEnclosingElement();
    String name = method.getSimpleName().toString();
    if (call.getMethodSelect() instanceof MemberSelectTree select) {
      TreePath receiver = child(child(path, select), select.getExpression());
      Element target = trees.getElement(receiver);
      if (target != null && scope.isRejected(target)) {
        throw new AlreadyReported();
      }
      if (trees.getTypeMirror(receiver) instanceof ArrayType) {
        throw new KernelError(
            select.getExpression(), Errors.unsupportedArrayUse(select.getExpression()));
      }
    }
    if (owner.getQualifiedName().contentEquals(GPU_CLASS)) {
      if (atomicOp(name).isPresent()) { // its previous value, where the expression needs it
        Local previous = scope.temporary("atomic", expressions.valueType(path));
        return new Expr.Effect(List.of(atomic(path, previous)), new Expr.LocalGet(previous));
      }
      if (isSharedAllocation(name)) {
        throw new KernelError(call, Errors.sharedDeclaration(name));
      }
      Optional<Builtin> builtin =
          Arrays.stream(Builtin.values()).filter(b -> b.intrinsic().equals(name)).findFirst();
      if (builtin.isPresent()) {
        ExpressionTree axisTree = call.getArguments().getFirst();
        if (expressions.expr(child(path, axisTree)) instanceof Expr.IntConst(int axis)
            && axis >= 0
            && axis <= 2) {
          return new Expr.BuiltinGet(builtin.get(), axis);
        }
        throw new KernelError(axisTree, Errors.intrinsicAxis(name));
      }
    }
    String signature = Library.signature(method);
    if (Library.has(signature)) {
      List<Expr> arguments = new java.util.ArrayList<>();
      for (int i = 0; i < call.getArguments().size(); i++) {
        PrimType parameter =
            SignatureReader.primType(method.getParameters().get(i).asType()).orElseThrow();
        arguments.add(expressions.expr(child(path, call.getArguments().get(i)), parameter));
      }
      Expr lowered = Library.call(signature, arguments);
      if (lowered instanceof Expr.Call(var function, var args, var unused)
          && function == Intrinsic.SUBGROUP_BROADCAST) {
        if (!(Constants.fold(args.get(1)) instanceof Expr.IntConst lane) || lane.value() < 0) {
          throw new KernelError(call.getArguments().get(1), Errors.subgroupLane());
        }
        lowered = new Expr.Call(function, List.of(args.get(0), lane));
      }
      if (lowered instanceof Expr.Call(var function, var args, var unused)
          && function.isClustered()) {
        if (!(Constants.fold(args.get(1)) instanceof Expr.IntConst size)
            || size.value() < 1
            || size.value() > MAX_CLUSTER
            || Integer.bitCount(size.value()) != 1) {
          throw new KernelError(call.getArguments().get(1), Errors.subgroupCluster(name));
        }
        lowered = new Expr.Call(function, List.of(args.get(0), size));
      }
      if (lowered instanceof Expr.Call subgroup && subgroup.function().isSubgroup()) {
        return subgroup.at(expressions.site(call)); // where the uniformity warning points
      }
      return lowered;
    }
    if (helpers.isHelper(method)) {
      if (helpers.inKernelClass(method)
          && trees.getTree(method) instanceof MethodTree helper
          && helper.getBody().getStatements().size() == 1
          && helper.getBody().getStatements().getFirst() instanceof ReturnTree ret
          && ret.getExpression() != null) {
        return helpers.inlinePure(path, method, ret);
      }
      // statements in the expression, where Java runs them: after the operands to their left
      PrimType type =
          SignatureReader.primType(method.getReturnType())
              .orElseThrow(() -> UnsupportedTypes.error(call, method.getReturnType()));
      Local result = scope.temporary(name + "Result", type);
      return new Expr.Effect(embedded.helper(path, method, result), new Expr.LocalGet(result));
    }
    throw unavailable(call, method);
  }

  /**
   * The error for a call of {@code method}, which is no library method and no helper Kiln can
   * inline: an instance method, compiled code, or anything else.
   */
  KernelError unavailable(Tree call, ExecutableElement method) {
    TypeElement owner = (TypeElement) method.getEnclosingElement();
    String name = owner.getSimpleName() + "." + method.getSimpleName();
    if (owner.getQualifiedName().contentEquals("java.io.PrintStream")) {
      return new KernelError(call, Errors.unsupportedPrint(name));
    }
    if (!method.getModifiers().contains(javax.lang.model.element.Modifier.STATIC)) {
      return new KernelError(call, Errors.unsupportedCall(name));
    }
    String qualified = owner.getQualifiedName().toString();
    if (qualified.startsWith("java.")
        || qualified.startsWith("javax.")
        || qualified.startsWith("jdk.")
        || qualified.startsWith("dev.kiln.")) {
      return new KernelError(call, Errors.unsupportedCall(name));
    }
    return new KernelError(call, Errors.helperCompiled(name));
  }
}
