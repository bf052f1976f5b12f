package dev.kiln.processor.lower;

import dev.kiln.processor.ir.Expr;

/** Folds int constant arithmetic, for lengths such as {@code TILE * TILE}. */
final class Constants {
  private Constants() {}

  /** {@code expr} as an {@code IntConst} if it is int arithmetic on constants; else itself. */
  static Expr fold(Expr expr) {
    return switch (expr) {
      case Expr.Binary(var op, var left, var right, var type, var site)
          when fold(left) instanceof Expr.IntConst(int a)
              && fold(right) instanceof Expr.IntConst(int b) ->
          switch (op) {
            case ADD -> new Expr.IntConst(a + b);
            case SUB -> new Expr.IntConst(a - b);
            case MUL -> new Expr.IntConst(a * b);
            case DIV -> b == 0 ? expr : new Expr.IntConst(a / b);
            case SHL -> new Expr.IntConst(a << b);
            case SHR -> new Expr.IntConst(a >> b);
            default -> expr;
          };
      case Expr.Unary(var op, var operand)
          when op == dev.kiln.processor.ir.UnaryOp.NEG
              && fold(operand) instanceof Expr.IntConst(int a) ->
          new Expr.IntConst(-a);
      default -> expr;
    };
  }
}
