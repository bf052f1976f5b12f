package dev.kiln.processor.lower;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import java.util.Optional;

/**
 * Conditions known as a kernel is lowered: a helper called with a constant argument (a layout, an
 * element type, a form chosen by a literal) branches on it, and only the branch taken is kept, so
 * that each kernel's module holds the code it runs.
 */
final class ConstantBranches {
  private ConstantBranches() {}

  /**
   * The value of a boolean condition made of constants (comparisons of int or long constants,
   * {@code !}, {@code &&}, {@code ||} and {@code ?:} of known parts), if it has one.
   */
  static Optional<Boolean> truth(Expr condition) {
    return switch (condition) {
      case Expr.BoolConst c -> Optional.of(c.value());
      case Expr.Unary u when u.op() == dev.kiln.processor.ir.UnaryOp.NOT ->
          truth(u.operand()).map(value -> !value);
      case Expr.Conditional c ->
          truth(c.condition()).flatMap(known -> truth(known ? c.then() : c.otherwise()));
      case Expr.Binary b when b.op().isComparison() -> compare(b.op(), b.left(), b.right());
      case Expr.Binary b when b.op() == BinaryOp.AND || b.op() == BinaryOp.OR -> {
        Optional<Boolean> left = truth(b.left());
        Optional<Boolean> right = truth(b.right());
        yield left.isPresent() && right.isPresent()
            ? Optional.of(
                b.op() == BinaryOp.AND ? left.get() && right.get() : left.get() || right.get())
            : Optional.empty();
      }
      default -> Optional.empty();
    };
  }

  private static Optional<Boolean> compare(BinaryOp op, Expr left, Expr right) {
    Optional<Long> a = integer(left);
    Optional<Long> b = integer(right);
    if (a.isEmpty() || b.isEmpty()) {
      return Optional.empty();
    }
    int order = Long.compare(a.get(), b.get());
    return Optional.of(
        switch (op) {
          case EQ -> order == 0;
          case NE -> order != 0;
          case LT -> order < 0;
          case LE -> order <= 0;
          case GT -> order > 0;
          case GE -> order >= 0;
          default -> throw new IllegalArgumentException(op + " compares nothing");
        });
  }

  private static Optional<Long> integer(Expr value) {
    return switch (Constants.fold(value)) {
      case Expr.IntConst c -> Optional.of((long) c.value());
      case Expr.LongConst c -> Optional.of(c.value());
      default -> Optional.empty();
    };
  }
}
