package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.TreePaths.child;
import static dev.kiln.processor.lower.TreePaths.unparenthesized;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.diag.KernelError;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Fragment;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.model.SignatureReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;

/**
 * Expression statements and a local's assignment: assignments, increments, compound assignments,
 * the calls that are statements (helpers, barriers, atomics, copies, matrix stores), and a local
 * assigned an atomic's previous value, a helper's result or a switch expression that runs
 * statements.
 */
final class ExpressionStatements {
  private final Trees trees;
  private final Scope scope;
  private final Expressions expressions;
  private final CallLowering calls;
  private final HelperInlining helpers;
  private final MatrixLowering matrices;
  private final Switches switches;

  /** How a helper's statements come in place of its call (the kernel's statement lowering). */
  private final EmbeddedStatements embedded;

  private final BufferAliases aliases;

  ExpressionStatements(
      Trees trees,
      Scope scope,
      Expressions expressions,
      CallLowering calls,
      HelperInlining helpers,
      MatrixLowering matrices,
      Switches switches,
      EmbeddedStatements embedded,
      BufferAliases aliases) {
    this.trees = trees;
    this.scope = scope;
    this.expressions = expressions;
    this.calls = calls;
    this.helpers = helpers;
    this.matrices = matrices;
    this.switches = switches;
    this.embedded = embedded;
    this.aliases = aliases;
  }

  /**
   * {@code local = <expression at value>}, where the expression may be an atomic update, a helper
   * call or a switch expression whose cases run statements.
   */
  List<Stmt> assignLocal(Local local, TreePath value) {
    if (unparenthesized(value).getLeaf() instanceof com.sun.source.tree.SwitchExpressionTree choice
        && choice.getCases().stream()
            .anyMatch(c -> !(c.getBody() instanceof com.sun.source.tree.ExpressionTree))) {
      return switches.into(unparenthesized(value), choice, local);
    }
    if (calls.gpuCall(value).flatMap(CallLowering::atomicOp).isPresent()) {
      PrimType returned = expressions.valueType(value);
      if (local.type() == returned) {
        return List.of(calls.atomic(value, local));
      }
      // the value an atomic returns, widened as Java widens it (an int into a long local, say)
      Local previous = scope.temporary("atomicResult", returned);
      return List.of(
          calls.atomic(value, previous),
          new Stmt.Assign(
              local, JavaArithmetic.convert(new Expr.LocalGet(previous), local.type())));
    }
    Optional<ExecutableElement> helper = helpers.helperCall(value);
    if (helper.isPresent()) {
      PrimType type =
          SignatureReader.primType(helper.get().getReturnType())
              .orElseThrow(
                  () -> UnsupportedTypes.error(value.getLeaf(), helper.get().getReturnType()));
      Local result = scope.temporary(helper.get().getSimpleName() + "Result", type);
      List<Stmt> statements = new ArrayList<>(embedded.helper(value, helper.get(), result));
      statements.add(
          new Stmt.Assign(local, JavaArithmetic.convert(new Expr.LocalGet(result), local.type())));
      return statements;
    }
    return List.of(new Stmt.Assign(local, expressions.expr(value, local.type())));
  }

  /** An expression statement: an assignment, an increment or a call. */
  List<Stmt> effect(TreePath path) {
    Tree tree = path.getLeaf();
    return switch (tree.getKind()) {
      case ASSIGNMENT -> {
        AssignmentTree assignment = (AssignmentTree) tree;
        TreePath target = child(path, assignment.getVariable());
        TreePath value = child(path, assignment.getExpression());
        Element assigned = trees.getElement(target);
        Optional<Local> local = Optional.ofNullable(assigned).flatMap(scope::local);
        if (local.isPresent()) {
          yield assignLocal(local.get(), value);
        }
        BufferAlias alias = scope.aliasesByElement().get(assigned);
        if (alias != null) {
          yield aliases.assign(alias, value);
        }
        Optional<Fragment> fragment = matrices.fragment(target);
        if (fragment.isPresent()) {
          yield matrices.assign(fragment.get(), value);
        }
        yield assign(target, expressions.expr(value));
      }
      case PREFIX_INCREMENT, POSTFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_DECREMENT -> {
        TreePath target = child(path, ((UnaryTree) tree).getExpression());
        PrimType type = expressions.valueType(target);
        Expr one = JavaArithmetic.convert(new Expr.IntConst(1), type.promoted());
        BinaryOp op =
            tree.getKind() == Tree.Kind.PREFIX_INCREMENT
                    || tree.getKind() == Tree.Kind.POSTFIX_INCREMENT
                ? BinaryOp.ADD
                : BinaryOp.SUB;
        yield assign(target, JavaArithmetic.binary(op, read(target), one, type));
      }
      case METHOD_INVOCATION -> {
        Optional<ExecutableElement> helper = helpers.helperCall(path);
        if (helper.isPresent()) {
          yield embedded.helper(path, helper.get(), null);
        }
        Optional<String> intrinsic = calls.gpuCall(path);
        if (intrinsic.isPresent() && intrinsic.get().equals(CallLowering.BARRIER)) {
          yield List.of(new Stmt.Barrier(expressions.site(tree)));
        }
        if (intrinsic.isPresent() && intrinsic.get().equals(CallLowering.STORE_ACCUMULATOR)) {
          yield matrices.store(path);
        }
        if (intrinsic.flatMap(CallLowering::atomicOp).isPresent()) {
          yield List.of(calls.atomic(path, null));
        }
        if (calls.isArraycopy(path)) {
          yield List.of(calls.arraycopy(path));
        }
        expressions.expr(
            path); // the other intrinsics have no side effects; anything else is reported here
        yield List.of();
      }
      default -> {
        if (tree instanceof CompoundAssignmentTree compound) {
          TreePath target = child(path, compound.getVariable());
          PrimType type = expressions.valueType(target);
          Expr value = expressions.expr(child(path, compound.getExpression()));
          yield assign(
              target,
              expressions.faulting(
                  JavaArithmetic.compound(tree.getKind(), read(target), value, type), tree));
        }
        throw new KernelError(tree, Errors.unsupportedExpression(TreePaths.describe(tree)));
      }
    };
  }

  /** The current value of an assignment target, for compound assignments and increments. */
  private Expr read(TreePath target) {
    return expressions.expr(target);
  }

  /**
   * {@code t[j][i] = value} of a private array of two or three dimensions, in Java's order: the row
   * indices evaluated and checked, the last index evaluated, the value, then the last index checked
   * and the element stored.
   */
  private Stmt rowsStore(
      ArrayRef.Rows rows, Expr index, Expr value, com.sun.source.tree.ArrayAccessTree access) {
    Local row = scope.temporary("row", PrimType.INT);
    Local last = scope.temporary("index", PrimType.INT);
    Local stored = scope.temporary("stored", rows.element());
    Expr flat =
        rows.startingAt(new Expr.LocalGet(row))
            .at(new Expr.LocalGet(last), expressions.site(access));
    return new Stmt.Store(
        rows.decl(),
        new Expr.Effect(
            List.of(
                new Stmt.Assign(row, rows.offset()),
                new Stmt.Assign(last, index),
                new Stmt.Assign(stored, value)),
            flat),
        new Expr.LocalGet(stored),
        expressions.site(access));
  }

  /** {@code target = value}, with Java's implicit narrowing to the target's type. */
  private List<Stmt> assign(TreePath target, Expr value) {
    target = unparenthesized(target);
    Tree tree = target.getLeaf();
    if (tree instanceof com.sun.source.tree.ArrayAccessTree access) {
      ArrayRef array = expressions.array(child(target, access.getExpression()));
      Expr index = expressions.expr(child(target, access.getIndex()), PrimType.INT);
      Expr stored = JavaArithmetic.convert(value, array.element());
      Site site = expressions.site(access);
      return switch (array) {
        case ArrayRef.Rows rows -> List.of(rowsStore(rows, index, stored, access));
        case ArrayRef.Chosen chosen -> { // the index, the value, then the store that checks
          Local at = scope.temporary("index", PrimType.INT);
          Local held = scope.temporary("stored", array.element());
          List<Stmt> statements = new ArrayList<>();
          statements.add(new Stmt.Assign(at, index));
          statements.add(new Stmt.Assign(held, stored));
          statements.addAll(
              chosen.chooseStatements(
                  buffer ->
                      new Stmt.Store(
                          buffer, new Expr.LocalGet(at), new Expr.LocalGet(held), site)));
          yield statements;
        }
        default -> List.of(new Stmt.Store(array.decl(), index, stored, site));
      };
    }
    Local local = expressions.assignedLocal(target);
    return List.of(new Stmt.Assign(local, JavaArithmetic.convert(value, local.type())));
  }
}
