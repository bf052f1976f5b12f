package dev.kiln.processor.lower;

import com.sun.source.tree.Tree;
import dev.kiln.processor.ir.BinaryOp;
import java.util.Optional;

/** The IR operator of a binary or compound-assignment tree kind. */
final class BinaryOps {
  private BinaryOps() {}

  static Optional<BinaryOp> of(Tree.Kind kind) {
    return Optional.ofNullable(
        switch (kind) {
          case PLUS, PLUS_ASSIGNMENT -> BinaryOp.ADD;
          case MINUS, MINUS_ASSIGNMENT -> BinaryOp.SUB;
          case MULTIPLY, MULTIPLY_ASSIGNMENT -> BinaryOp.MUL;
          case DIVIDE, DIVIDE_ASSIGNMENT -> BinaryOp.DIV;
          case REMAINDER, REMAINDER_ASSIGNMENT -> BinaryOp.REM;
          case LEFT_SHIFT, LEFT_SHIFT_ASSIGNMENT -> BinaryOp.SHL;
          case RIGHT_SHIFT, RIGHT_SHIFT_ASSIGNMENT -> BinaryOp.SHR;
          case UNSIGNED_RIGHT_SHIFT, UNSIGNED_RIGHT_SHIFT_ASSIGNMENT -> BinaryOp.USHR;
          case AND, AND_ASSIGNMENT -> BinaryOp.AND;
          case OR, OR_ASSIGNMENT -> BinaryOp.OR;
          case XOR, XOR_ASSIGNMENT -> BinaryOp.XOR;
          case EQUAL_TO -> BinaryOp.EQ;
          case NOT_EQUAL_TO -> BinaryOp.NE;
          case LESS_THAN -> BinaryOp.LT;
          case LESS_THAN_EQUAL -> BinaryOp.LE;
          case GREATER_THAN -> BinaryOp.GT;
          case GREATER_THAN_EQUAL -> BinaryOp.GE;
          default -> null;
        });
  }
}
