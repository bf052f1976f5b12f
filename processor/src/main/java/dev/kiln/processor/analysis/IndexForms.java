package dev.kiln.processor.analysis;

import dev.kiln.processor.analysis.IndexForm.Affine;
import dev.kiln.processor.analysis.IndexForm.Unknown;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Computes the {@link IndexForm} of int expressions of one program. A local is seen through when
 * the body assigns it exactly once (Java's definite assignment then guarantees that every read sees
 * that value) and the value's form holds the same wherever it is read, which is true of any affine
 * form: its terms do not change during an invocation. Anything else is {@link Unknown}, or what the
 * caller's analysis knows of a variable local.
 */
public final class IndexForms {
  private final Map<Local, Expr> assignedOnce = new HashMap<>();
  private final Set<Local> resolving = new HashSet<>();

  private IndexForms(Program program) {
    Map<Local, Integer> assignments = new HashMap<>();
    Walk.statements(
        program.body(),
        statement -> {
          switch (statement) {
            case Stmt.Assign assign -> {
              assignments.merge(assign.local(), 1, Integer::sum);
              assignedOnce.put(assign.local(), assign.value());
            }
            case Stmt.Atomic atomic when atomic.result() != null ->
                assignments.merge(atomic.result(), 2, Integer::sum);
            default -> {}
          }
        });
    assignments.forEach(
        (local, count) -> {
          if (count != 1) {
            assignedOnce.remove(local);
          }
        });
  }

  public static IndexForms of(Program program) {
    return new IndexForms(program);
  }

  /**
   * The value of the single assignment of {@code local}, where the body assigns it exactly once.
   *
   * @param local the local
   * @return its value, or null where it is assigned more than once or never
   */
  public Expr singleAssignment(Local local) {
    return assignedOnce.get(local);
  }

  /** The form of the int expression {@code expression}. */
  public IndexForm form(Expr expression) {
    return form(expression, local -> new Unknown());
  }

  /**
   * The form of the int expression {@code expression} where {@code variable} gives the form of each
   * local that no single assignment describes: one assigned several times, or once to a value whose
   * form depends on such a local or that has none ({@code subgroup % 8}: the caller may know its
   * range).
   */
  public IndexForm form(Expr expression, Function<Local, IndexForm> variable) {
    if (expression.type() != PrimType.INT) {
      return new Unknown();
    }
    return switch (expression) {
      case Expr.IntConst constant -> IndexForm.constant(constant.value());
      case Expr.ScalarGet get -> IndexForm.term(new IndexForm.Scalar(get.param().name()));
      case Expr.Length length -> IndexForm.term(new IndexForm.Length(length.buffer().name()));
      // the number of workgroups is each arm's own in a fused program: no common term
      case Expr.BuiltinGet get when get.builtin() == Builtin.NUM_WORKGROUPS -> new Unknown();
      case Expr.BuiltinGet get -> IndexForm.term(new IndexForm.Id(get.builtin(), get.axis()));
      case Expr.LocalGet get -> local(get.local(), variable);
      case Expr.Unary unary ->
          switch (unary.op()) {
            case NEG -> IndexForm.scale(form(unary.operand(), variable), -1);
            case COMPLEMENT ->
                IndexForm.add(
                    IndexForm.scale(form(unary.operand(), variable), -1), IndexForm.constant(-1));
            case NOT -> new Unknown();
          };
      case Expr.Binary binary -> binary(binary, variable);
      default -> new Unknown();
    };
  }

  private IndexForm local(Local local, Function<Local, IndexForm> variable) {
    Expr value = assignedOnce.get(local);
    if (value == null) {
      return variable.apply(local);
    }
    if (!resolving.add(local)) {
      return new Unknown();
    }
    try {
      // a value read through a variable may have changed since the assignment: the local is one too
      boolean[] readVariable = {false};
      IndexForm form =
          form(
              value,
              v -> {
                readVariable[0] = true;
                return new Unknown();
              });
      return readVariable[0] || form instanceof Unknown ? variable.apply(local) : form;
    } finally {
      resolving.remove(local);
    }
  }

  private IndexForm binary(Expr.Binary binary, Function<Local, IndexForm> variable) {
    IndexForm left = form(binary.left(), variable);
    IndexForm right = form(binary.right(), variable);
    Integer a = constantOf(left);
    Integer b = constantOf(right);
    if (a != null && b != null) {
      return folded(binary.op(), a, b);
    }
    return switch (binary.op()) {
      case ADD -> IndexForm.add(left, right);
      case SUB -> IndexForm.add(left, IndexForm.scale(right, -1));
      case MUL -> IndexForm.multiply(left, right);
      case SHL ->
          constantOf(right) != null
              ? IndexForm.scale(left, 1 << (constantOf(right) & 31))
              : new Unknown();
      default -> new Unknown();
    };
  }

  /** {@code a op b} as Java computes it on ints ({@code 64 / 2}); a division by zero is no form. */
  private static IndexForm folded(BinaryOp op, int a, int b) {
    return switch (op) {
      case ADD -> IndexForm.constant(a + b);
      case SUB -> IndexForm.constant(a - b);
      case MUL -> IndexForm.constant(a * b);
      case DIV -> b == 0 ? new Unknown() : IndexForm.constant(a / b);
      case REM -> b == 0 ? new Unknown() : IndexForm.constant(a % b);
      case SHL -> IndexForm.constant(a << b);
      case SHR -> IndexForm.constant(a >> b);
      case USHR -> IndexForm.constant(a >>> b);
      case AND -> IndexForm.constant(a & b);
      case OR -> IndexForm.constant(a | b);
      case XOR -> IndexForm.constant(a ^ b);
      case EQ, NE, LT, LE, GT, GE -> new Unknown();
    };
  }

  private static Integer constantOf(IndexForm form) {
    return form instanceof Affine affine && affine.coefficients().isEmpty()
        ? affine.constant()
        : null;
  }
}
