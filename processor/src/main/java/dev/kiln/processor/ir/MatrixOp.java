package dev.kiln.processor.ir;

import java.util.List;

/**
 * An operation on cooperative matrices, made by all the invocations of a subgroup together with the
 * same operands ({@code check.MatrixUniformity} demands both). Each writes one fragment, or (a
 * store) an array.
 */
public sealed interface MatrixOp {
  /** The scalar operands, in evaluation order. */
  List<Expr> scalars();

  /** {@code target = fill(value)}: every element a float. */
  record Fill(Fragment target, Expr value) implements MatrixOp {
    @Override
    public List<Expr> scalars() {
      return List.of(value);
    }
  }

  /**
   * {@code target = load(array, offset, stride)}: element (row, column) at {@code offset + row *
   * stride + column}, or {@code offset + column * stride + row} where {@code columnMajor}; the
   * values of type {@code element} (the target's).
   */
  record Load(
      Fragment target,
      ArrayDecl array,
      Expr offset,
      Expr stride,
      boolean columnMajor,
      Fragment.Element element)
      implements MatrixOp {
    @Override
    public List<Expr> scalars() {
      return List.of(offset, stride);
    }
  }

  /** {@code store(source, array, offset, stride)}, the elements where {@link Load} reads them. */
  record Store(Fragment source, ArrayDecl array, Expr offset, Expr stride, boolean columnMajor)
      implements MatrixOp {
    @Override
    public List<Expr> scalars() {
      return List.of(offset, stride);
    }
  }

  /** {@code target = a * b + c}. */
  record MultiplyAdd(Fragment target, Fragment a, Fragment b, Fragment c) implements MatrixOp {
    @Override
    public List<Expr> scalars() {
      return List.of();
    }
  }

  /** {@code target = source * factor}, elementwise. */
  record Scale(Fragment target, Fragment source, Expr factor) implements MatrixOp {
    @Override
    public List<Expr> scalars() {
      return List.of(factor);
    }
  }

  /** {@code target = x + y}, elementwise. */
  record Add(Fragment target, Fragment x, Fragment y) implements MatrixOp {
    @Override
    public List<Expr> scalars() {
      return List.of();
    }
  }

  /** {@code target = source}. */
  record Copy(Fragment target, Fragment source) implements MatrixOp {
    @Override
    public List<Expr> scalars() {
      return List.of();
    }
  }

  /**
   * The same operation with {@code scalars} (as many, in {@link #scalars()}'s order) in place of
   * its own.
   */
  default MatrixOp withScalars(List<Expr> scalars) {
    return switch (this) {
      case Fill fill -> new Fill(fill.target(), scalars.get(0));
      case Load load ->
          new Load(
              load.target(),
              load.array(),
              scalars.get(0),
              scalars.get(1),
              load.columnMajor(),
              load.element());
      case Store store ->
          new Store(
              store.source(), store.array(), scalars.get(0), scalars.get(1), store.columnMajor());
      case Scale scale -> new Scale(scale.target(), scale.source(), scalars.get(0));
      case MultiplyAdd m -> m;
      case Add add -> add;
      case Copy copy -> copy;
    };
  }
}
