package dev.kiln.processor.lower;

import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.FixedArray;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Stmt;
import java.util.List;
import java.util.function.Function;

/**
 * What an array expression in a kernel names: a buffer parameter, a shared or private array, a
 * private array of two or three dimensions or a row of one, or one of several buffers a local array
 * variable may name here.
 */
sealed interface ArrayRef {
  ArrayDecl decl();

  default PrimType element() {
    return decl().element();
  }

  record Buffer(BufferDecl decl) implements ArrayRef {}

  /** A shared or private array. */
  record Fixed(FixedArray decl) implements ArrayRef {}

  /**
   * A private array of two or three dimensions ({@code new float[R][C]}), held flat in row-major
   * order, or the part of it that {@code depth} indices chose: its elements start at flat element
   * {@code offset}, whose expression checks each index chosen against its dimension as Java does.
   */
  record Rows(PrivateArray decl, List<Integer> extents, int depth, Expr offset)
      implements ArrayRef {
    public Rows {
      extents = List.copyOf(extents);
    }

    /** The whole array. */
    static Rows of(PrivateArray decl, List<Integer> extents) {
      return new Rows(decl, extents, 0, new Expr.IntConst(0));
    }

    /** How many elements this part has at its first level: its {@code length}. */
    int length() {
      return extents.get(depth);
    }

    /** Whether an index into it chooses an element, not a row. */
    boolean lastLevel() {
      return depth == extents.size() - 1;
    }

    /** The flat elements one index at this level steps over. */
    private int stride() {
      int stride = 1;
      for (int level = depth + 1; level < extents.size(); level++) {
        stride *= extents.get(level);
      }
      return stride;
    }

    /**
     * The flat element {@code index} chooses ({@link #lastLevel()}), or where the row it chooses
     * starts: the offset, then the index checked against {@link #length()} at {@code site}.
     */
    Expr at(Expr index, Site site) {
      Expr step = new Expr.Checked(index, length(), site);
      if (stride() != 1) {
        step = new Expr.Binary(BinaryOp.MUL, step, new Expr.IntConst(stride()));
      }
      return offset instanceof Expr.IntConst(int zero) && zero == 0
          ? step
          : new Expr.Binary(BinaryOp.ADD, offset, step);
    }

    /** The same part, starting at flat element {@code start} (a local that holds its offset). */
    Rows startingAt(Expr start) {
      return new Rows(decl, extents, depth, start);
    }

    /** The row {@code index} chooses, checked at {@code site}. */
    Rows row(Expr index, Site site) {
      return new Rows(decl, extents, depth + 1, at(index, site));
    }
  }

  /**
   * A local array variable that may name one of several buffers here ({@link BufferAliases}): its
   * selector holds the key of the one it names.
   */
  record Chosen(Local selector, List<BufferDecl> options, List<Integer> keys) implements ArrayRef {
    public Chosen {
      options = List.copyOf(options);
      keys = List.copyOf(keys);
    }

    /** It names no one array: callers ask {@link #options()}. */
    @Override
    public ArrayDecl decl() {
      throw new IllegalStateException("a local array variable naming one of " + options);
    }

    @Override
    public PrimType element() {
      return options.getFirst().element();
    }

    /** The same choice, made by {@code other} (a local that holds the selector's value). */
    Chosen selectedBy(Local other) {
      return new Chosen(other, options, keys);
    }

    /** {@code each} of the buffer the selector names. */
    Expr choose(Function<BufferDecl, Expr> each) {
      Expr chosen = each.apply(options.getLast());
      for (int k = options.size() - 2; k >= 0; k--) {
        chosen = new Expr.Conditional(names(k), each.apply(options.get(k)), chosen);
      }
      return chosen;
    }

    /** {@code each} of the buffer the selector names, as statements. */
    List<Stmt> chooseStatements(Function<BufferDecl, Stmt> each) {
      List<Stmt> chosen = List.of(each.apply(options.getLast()));
      for (int k = options.size() - 2; k >= 0; k--) {
        chosen = List.of(new Stmt.If(names(k), List.of(each.apply(options.get(k))), chosen));
      }
      return chosen;
    }

    private Expr names(int option) {
      return new Expr.Binary(
          BinaryOp.EQ, new Expr.LocalGet(selector), new Expr.IntConst(keys.get(option)));
    }
  }
}
