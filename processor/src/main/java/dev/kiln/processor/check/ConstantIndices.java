package dev.kiln.processor.check;

import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.FixedArray;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Constant indices that are out of bounds in every launch: below 0, or at or past the length of an
 * array whose length is a constant. Java would throw wherever such an access runs, and SPIR-V has
 * no valid module for one (a constant index into an array must be within it), so it is a compile
 * error, with bounds checks on or off.
 */
public final class ConstantIndices {
  private ConstantIndices() {}

  /**
   * The errors of {@code program}'s element accesses; each names which operand of its tree the
   * index is ({@link CheckError#operand()}).
   *
   * @param program a lowered, linked program
   * @return one error per constant index out of bounds
   */
  public static List<CheckError> check(Program program) {
    List<CheckError> errors = new ArrayList<>();
    Walk.statements(
        program.body(),
        statement -> {
          switch (statement) {
            case Stmt.Store store ->
                check(store.array(), store.index(), 1, store.site(), CheckError.INDEX, errors);
            case Stmt.Atomic atomic ->
                check(atomic.array(), atomic.index(), 1, atomic.site(), 1, errors);
            case Stmt.Copy copy -> {
              check(copy.source(), copy.sourceIndex(), copy.length(), copy.site(), 1, errors);
              check(copy.target(), copy.targetIndex(), copy.length(), copy.site(), 3, errors);
            }
            default -> {}
          }
        });
    Walk.expressions(
        program.body(),
        expression -> {
          if (expression instanceof Expr.Load load) {
            check(load.array(), load.index(), 1, load.site(), CheckError.INDEX, errors);
          }
        });
    // a compound assignment reads and writes its element: one error for both, as for one mistake
    Map<String, CheckError> once = new LinkedHashMap<>();
    errors.forEach(
        error -> once.putIfAbsent(error.site().line() + " " + error.diagnostic().text(), error));
    return List.copyOf(once.values());
  }

  /**
   * An error where the constant {@code index}'s range of {@code count} elements leaves {@code
   * array}.
   */
  private static void check(
      ArrayDecl array, Expr index, int count, Site site, int operand, List<CheckError> errors) {
    if (!(index instanceof Expr.IntConst(int first))) {
      return;
    }
    int length = array instanceof FixedArray fixed && fixed.hasConstantLength() ? fixed.size() : -1;
    if (first < 0) {
      errors.add(
          new CheckError(
              site,
              Errors.constantIndex(first, kind(array), sourceName(array), "it is below 0"),
              operand));
    } else if (length >= 0 && (long) first + count > length) {
      errors.add(
          new CheckError(
              site,
              Errors.constantIndex(
                  first,
                  kind(array),
                  sourceName(array),
                  (count == 1 ? "" : "its copy of " + count + " elements ends past the end: ")
                      + "the array's length is "
                      + length),
              operand));
    }
  }

  /**
   * The array's name in the source: an invocation's own array is numbered after a '$' in the IR.
   */
  private static String sourceName(ArrayDecl array) {
    int mark = array.name().indexOf('$');
    return mark < 0 ? array.name() : array.name().substring(0, mark);
  }

  private static String kind(ArrayDecl array) {
    return switch (array) {
      case BufferDecl buffer -> "buffer";
      case PrivateArray own -> "the invocation's own array";
      default -> "workgroup array";
    };
  }
}
