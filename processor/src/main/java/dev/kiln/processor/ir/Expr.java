package dev.kiln.processor.ir;

/**
 * An expression of the kernel language. Only {@link Effect} has side effects (Java's assignments,
 * increments and atomics inside expressions): every other expression can be evaluated twice or not
 * at all without changing anything but the code's size; {@link Let} evaluates a value once where it
 * is used several times.
 */
public sealed interface Expr {
  PrimType type();

  /** Whether this is a constant of a primitive type. */
  default boolean isConstant() {
    return this instanceof IntConst
        || this instanceof LongConst
        || this instanceof FloatConst
        || this instanceof DoubleConst
        || this instanceof BoolConst;
  }

  record IntConst(int value) implements Expr {
    @Override
    public PrimType type() {
      return PrimType.INT;
    }
  }

  record FloatConst(float value) implements Expr {
    @Override
    public PrimType type() {
      return PrimType.FLOAT;
    }
  }

  record LongConst(long value) implements Expr {
    @Override
    public PrimType type() {
      return PrimType.LONG;
    }
  }

  record DoubleConst(double value) implements Expr {
    @Override
    public PrimType type() {
      return PrimType.DOUBLE;
    }
  }

  record BoolConst(boolean value) implements Expr {
    @Override
    public PrimType type() {
      return PrimType.BOOLEAN;
    }
  }

  /** The current value of a local variable. */
  record LocalGet(Local local) implements Expr {
    @Override
    public PrimType type() {
      return local.type();
    }
  }

  /** The value of a scalar parameter. */
  record ScalarGet(ScalarParam param) implements Expr {
    @Override
    public PrimType type() {
      return param.type();
    }
  }

  /** {@code array[index]} of a buffer, shared or private array, read at {@code site}. */
  record Load(ArrayDecl array, Expr index, Site site) implements Expr {
    @Override
    public PrimType type() {
      return array.element();
    }
  }

  /**
   * {@code index}, checked as Java checks an index into an array of {@code length} elements: one
   * dimension of a private array of two or three, held flat ({@code t[j][i]} of a {@code new
   * float[R][C]} is flat element {@code checked(j, R)·C + checked(i, C)}). Out of bounds it faults
   * at {@code site} as an index into a local array of {@code length} elements does, and is 0.
   */
  record Checked(Expr index, int length, Site site) implements Expr {
    @Override
    public PrimType type() {
      return PrimType.INT;
    }
  }

  /** {@code buffer.length} of a buffer parameter. */
  record Length(BufferDecl buffer) implements Expr {
    @Override
    public PrimType type() {
      return PrimType.INT;
    }
  }

  /** An invocation-id built-in along {@code axis} (0, 1 or 2), as an int. */
  record BuiltinGet(Builtin builtin, int axis) implements Expr {
    @Override
    public PrimType type() {
      return PrimType.INT;
    }
  }

  /**
   * Whether this invocation lies inside arm {@code arm}'s grid of the launch (see {@link
   * PushConstantBlock}); with {@code wholeWorkgroups}, whether its workgroup does, which is the
   * same for every invocation of a workgroup (arms that wait at barriers run whole workgroups).
   */
  record InLaunch(int arm, boolean wholeWorkgroups) implements Expr {
    @Override
    public PrimType type() {
      return PrimType.BOOLEAN;
    }
  }

  /**
   * The number of workgroups of {@code size} invocations along {@code axis} that cover arm {@code
   * arm}'s grid: what {@code Gpu.numWorkgroups(axis)} means for that arm.
   */
  record ArmWorkgroups(int arm, int axis, int size) implements Expr {
    @Override
    public PrimType type() {
      return PrimType.INT;
    }
  }

  /** The size along {@code axis} of arm {@code arm}'s grid, as the launch passes it. */
  record LaunchCount(int arm, int axis) implements Expr {
    @Override
    public PrimType type() {
      return PrimType.INT;
    }
  }

  record Unary(UnaryOp op, Expr operand) implements Expr {
    @Override
    public PrimType type() {
      return operand.type();
    }
  }

  /**
   * {@code left op right}; both operands have one type, except the int distance of a shift. {@code
   * type} follows from the others (the three-argument constructor derives it); it is stored because
   * deriving it on each call walked the whole left spine: a sum of 1,000 terms made the processor
   * quadratic. {@code site} is where an integer division or remainder is, so that its fault names
   * the line; null for every other operation.
   */
  record Binary(BinaryOp op, Expr left, Expr right, PrimType type, Site site) implements Expr {
    public Binary(BinaryOp op, Expr left, Expr right) {
      this(op, left, right, op.isComparison() ? PrimType.BOOLEAN : left.type(), null);
    }

    public Binary(BinaryOp op, Expr left, Expr right, PrimType type) {
      this(op, left, right, type, null);
    }

    /** This operation, where it can fault, at {@code at}. */
    public Binary at(Site at) {
      return new Binary(op, left, right, type, at);
    }
  }

  /**
   * A call of a library function; a subgroup operation's has its site, for the checks' warnings.
   */
  record Call(Intrinsic function, java.util.List<Expr> arguments, Site site) implements Expr {
    public Call {
      arguments = java.util.List.copyOf(arguments);
    }

    public Call(Intrinsic function, java.util.List<Expr> arguments) {
      this(function, arguments, null);
    }

    /** This call, at {@code at}. */
    public Call at(Site at) {
      return new Call(function, arguments, at);
    }

    @Override
    public PrimType type() {
      return function.result(arguments.isEmpty() ? null : arguments.getFirst().type());
    }
  }

  /** A primitive conversion with Java's semantics (float to int saturates, NaN gives 0). */
  record Convert(PrimType type, Expr value) implements Expr {}

  /**
   * {@code condition ? then : otherwise}, evaluating only the chosen side; also the form of {@code
   * &&} and {@code ||}.
   */
  record Conditional(Expr condition, Expr then, Expr otherwise) implements Expr {
    @Override
    public PrimType type() {
      return then.type();
    }
  }

  /**
   * {@code statements} run, then {@code value}: an assignment, increment or atomic inside an
   * expression, where Java evaluates it (left to right, and only on the side of {@code &&}, {@code
   * ||} or {@code ?:} that runs).
   */
  record Effect(java.util.List<Stmt> statements, Expr value) implements Expr {
    public Effect {
      statements = java.util.List.copyOf(statements);
    }

    @Override
    public PrimType type() {
      return value.type();
    }
  }

  /**
   * {@code value}, evaluated once into {@code local}, then {@code body}, which reads it: how a
   * library function that uses an argument several times evaluates it once, as Java does.
   */
  record Let(Local local, Expr value, Expr body) implements Expr {
    @Override
    public PrimType type() {
      return body.type();
    }
  }
}
