package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.JavaArithmetic.binary;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.UnaryOp;
import dev.kiln.processor.lower.FloatingLibrary.Format;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * The methods of {@code java.lang.Math} (and {@code StrictMath}), {@code Float}, {@code Double},
 * {@code Integer}, {@code Long} and {@code dev.kiln.Gpu} that kernels may call, keyed by javac's
 * resolved signature ({@code java.lang.Math.min(int,int)}): each lowers to an intrinsic or to an IR
 * expression with the method's exact Java semantics.
 */
final class Library {
  private static final String MATH = "java.lang.Math.";
  private static final String FLOAT = "java.lang.Float.";
  private static final String INTEGER = "java.lang.Integer.";
  private static final String LONG = "java.lang.Long.";
  private static final String DOUBLE = "java.lang.Double.";
  private static final String GPU = "dev.kiln.Gpu.";

  private static final Map<String, Function<List<Expr>, Expr>> METHODS =
      withStrictMath(
          withGpu(
              Map.ofEntries(
                  intrinsic(MATH + "addExact(int,int)", Intrinsic.ADD_EXACT),
                  intrinsic(MATH + "addExact(long,long)", Intrinsic.ADD_EXACT),
                  intrinsic(MATH + "subtractExact(int,int)", Intrinsic.SUBTRACT_EXACT),
                  intrinsic(MATH + "subtractExact(long,long)", Intrinsic.SUBTRACT_EXACT),
                  intrinsic(MATH + "multiplyExact(int,int)", Intrinsic.MULTIPLY_EXACT),
                  intrinsic(MATH + "multiplyExact(long,long)", Intrinsic.MULTIPLY_EXACT),
                  intrinsic(MATH + "negateExact(int)", Intrinsic.NEGATE_EXACT),
                  intrinsic(MATH + "negateExact(long)", Intrinsic.NEGATE_EXACT),
                  Map.entry(
                      MATH + "incrementExact(int)",
                      args ->
                          new Expr.Call(
                              Intrinsic.ADD_EXACT, List.of(args.getFirst(), new Expr.IntConst(1)))),
                  Map.entry(
                      MATH + "decrementExact(int)",
                      args ->
                          new Expr.Call(
                              Intrinsic.SUBTRACT_EXACT,
                              List.of(args.getFirst(), new Expr.IntConst(1)))),
                  Map.entry(
                      MATH + "incrementExact(long)",
                      args ->
                          new Expr.Call(
                              Intrinsic.ADD_EXACT,
                              List.of(args.getFirst(), new Expr.LongConst(1)))),
                  Map.entry(
                      MATH + "decrementExact(long)",
                      args ->
                          new Expr.Call(
                              Intrinsic.SUBTRACT_EXACT,
                              List.of(args.getFirst(), new Expr.LongConst(1)))),
                  intrinsic(MATH + "toIntExact(long)", Intrinsic.TO_INT_EXACT),
                  intrinsic(MATH + "abs(int)", Intrinsic.ABS),
                  intrinsic(MATH + "abs(long)", Intrinsic.ABS),
                  intrinsic(MATH + "abs(double)", Intrinsic.ABS),
                  intrinsic(MATH + "abs(float)", Intrinsic.ABS),
                  intrinsic(MATH + "min(int,int)", Intrinsic.MIN),
                  intrinsic(MATH + "min(long,long)", Intrinsic.MIN),
                  intrinsic(MATH + "min(double,double)", Intrinsic.MIN),
                  intrinsic(INTEGER + "min(int,int)", Intrinsic.MIN),
                  intrinsic(MATH + "max(int,int)", Intrinsic.MAX),
                  intrinsic(MATH + "max(long,long)", Intrinsic.MAX),
                  intrinsic(MATH + "max(double,double)", Intrinsic.MAX),
                  intrinsic(INTEGER + "max(int,int)", Intrinsic.MAX),
                  intrinsic(MATH + "min(float,float)", Intrinsic.MIN),
                  intrinsic(FLOAT + "min(float,float)", Intrinsic.MIN),
                  intrinsic(MATH + "max(float,float)", Intrinsic.MAX),
                  intrinsic(FLOAT + "max(float,float)", Intrinsic.MAX),
                  intrinsic(MATH + "round(float)", Intrinsic.ROUND),
                  intrinsic(MATH + "round(double)", Intrinsic.ROUND),
                  Map.entry(
                      MATH + "rint(double)",
                      once(
                          args ->
                              FloatingLibrary.copySign(Format.DOUBLE)
                                  .apply(
                                      List.of(
                                          new Expr.Call(Intrinsic.RINT, args), args.getFirst())))),
                  intrinsic(MATH + "clamp(long,long,long)", Intrinsic.CLAMP),
                  intrinsic(MATH + "clamp(float,float,float)", Intrinsic.CLAMP),
                  intrinsic(MATH + "clamp(double,double,double)", Intrinsic.CLAMP),
                  Map.entry(
                      MATH + "clamp(long,int,int)",
                      args ->
                          new Expr.Convert(
                              PrimType.INT,
                              new Expr.Call(
                                  Intrinsic.CLAMP,
                                  List.of(
                                      args.get(0),
                                      new Expr.Convert(PrimType.LONG, args.get(1)),
                                      new Expr.Convert(PrimType.LONG, args.get(2)))))),
                  Map.entry(MATH + "scalb(float,int)", once(FloatingLibrary::scalbFloat)),
                  Map.entry(MATH + "scalb(double,int)", once(FloatingLibrary::scalbDouble)),
                  Map.entry(MATH + "fma(float,float,float)", once(FloatingLibrary::fmaFloat)),
                  intrinsic(MATH + "signum(float)", Intrinsic.SIGNUM),
                  intrinsic(MATH + "signum(double)", Intrinsic.SIGNUM),
                  intrinsic(MATH + "floor(double)", Intrinsic.FLOOR),
                  intrinsic(MATH + "ceil(double)", Intrinsic.CEIL),
                  intrinsic(MATH + "sqrt(double)", Intrinsic.SQRT),
                  intrinsic(DOUBLE + "isNaN(double)", Intrinsic.IS_NAN),
                  intrinsic(DOUBLE + "isInfinite(double)", Intrinsic.IS_INFINITE),
                  Map.entry(MATH + "floorMod(int,int)", once(Library::floorMod)),
                  Map.entry(MATH + "floorDiv(int,int)", once(Library::floorDiv)),
                  Map.entry(MATH + "floorMod(long,long)", once(Library::floorMod)),
                  Map.entry(MATH + "floorDiv(long,long)", once(Library::floorDiv)),
                  Map.entry(
                      MATH + "floorMod(long,int)",
                      args ->
                          new Expr.Convert(
                              PrimType.INT,
                              evaluatedOnce(
                                  List.of(
                                      args.get(0), new Expr.Convert(PrimType.LONG, args.get(1))),
                                  Library::floorMod))),
                  Map.entry(
                      MATH + "floorDiv(long,int)",
                      args ->
                          evaluatedOnce(
                              List.of(args.get(0), new Expr.Convert(PrimType.LONG, args.get(1))),
                              Library::floorDiv)),
                  intrinsic(FLOAT + "floatToRawIntBits(float)", Intrinsic.FLOAT_TO_RAW_INT_BITS),
                  intrinsic(FLOAT + "floatToIntBits(float)", Intrinsic.FLOAT_TO_INT_BITS),
                  intrinsic(FLOAT + "intBitsToFloat(int)", Intrinsic.INT_BITS_TO_FLOAT),
                  Map.entry(FLOAT + "floatToFloat16(float)", HalfLibrary::toHalf),
                  Map.entry(FLOAT + "float16ToFloat(short)", HalfLibrary::fromHalf),
                  Map.entry(GPU + "float16ToFloat(short)", HalfLibrary::deviceHalf),
                  intrinsic(FLOAT + "isNaN(float)", Intrinsic.IS_NAN),
                  intrinsic(FLOAT + "isInfinite(float)", Intrinsic.IS_INFINITE),
                  Map.entry(FLOAT + "isFinite(float)", once(Library::isFinite)),
                  intrinsic(INTEGER + "bitCount(int)", Intrinsic.BIT_COUNT),
                  intrinsic(INTEGER + "numberOfLeadingZeros(int)", Intrinsic.LEADING_ZEROS),
                  intrinsic(INTEGER + "numberOfTrailingZeros(int)", Intrinsic.TRAILING_ZEROS),
                  intrinsic(INTEGER + "reverse(int)", Intrinsic.REVERSE_BITS),
                  Map.entry(
                      INTEGER + "rotateLeft(int,int)",
                      once(args -> rotate(args, BinaryOp.SHL, BinaryOp.USHR))),
                  Map.entry(
                      INTEGER + "rotateRight(int,int)",
                      once(args -> rotate(args, BinaryOp.USHR, BinaryOp.SHL))),
                  Map.entry(
                      INTEGER + "lowestOneBit(int)",
                      once(
                          args ->
                              new Expr.Binary(
                                  BinaryOp.AND,
                                  args.getFirst(),
                                  new Expr.Unary(UnaryOp.NEG, args.getFirst())))),
                  Map.entry(
                      INTEGER + "highestOneBit(int)",
                      once(
                          args ->
                              new Expr.Binary(
                                  BinaryOp.AND,
                                  args.getFirst(),
                                  new Expr.Binary(
                                      BinaryOp.USHR,
                                      new Expr.IntConst(Integer.MIN_VALUE),
                                      new Expr.Call(Intrinsic.LEADING_ZEROS, args))))),
                  Map.entry(
                      INTEGER + "signum(int)",
                      once(
                          args ->
                              new Expr.Binary(
                                  BinaryOp.OR,
                                  new Expr.Binary(
                                      BinaryOp.SHR, args.getFirst(), new Expr.IntConst(31)),
                                  new Expr.Binary(
                                      BinaryOp.USHR,
                                      new Expr.Unary(UnaryOp.NEG, args.getFirst()),
                                      new Expr.IntConst(31))))),
                  Map.entry(INTEGER + "reverseBytes(int)", once(BitLibrary::reverseBytes)),
                  Map.entry(
                      INTEGER + "compare(int,int)", once(args -> BitLibrary.compare(args, false))),
                  Map.entry(
                      INTEGER + "compareUnsigned(int,int)",
                      once(args -> BitLibrary.compare(args, true))),
                  Map.entry(
                      INTEGER + "toUnsignedLong(int)",
                      args -> BitLibrary.toUnsignedLong(args.getFirst())),
                  Map.entry(
                      INTEGER + "divideUnsigned(int,int)",
                      args -> BitLibrary.unsigned(BinaryOp.DIV, args)),
                  Map.entry(
                      INTEGER + "remainderUnsigned(int,int)",
                      args -> BitLibrary.unsigned(BinaryOp.REM, args)),
                  Map.entry(
                      INTEGER + "sum(int,int)",
                      args -> new Expr.Binary(BinaryOp.ADD, args.get(0), args.get(1))),
                  Map.entry(
                      FLOAT + "sum(float,float)",
                      args -> new Expr.Binary(BinaryOp.ADD, args.get(0), args.get(1))),
                  Map.entry(FLOAT + "compare(float,float)", once(BitLibrary::floatCompare)),
                  Map.entry(MATH + "copySign(float,float)", FloatingLibrary.copySign(Format.FLOAT)),
                  Map.entry(MATH + "getExponent(float)", FloatingLibrary.getExponent(Format.FLOAT)),
                  Map.entry(MATH + "nextUp(float)", once(FloatingLibrary.next(Format.FLOAT, true))),
                  Map.entry(
                      MATH + "nextDown(float)", once(FloatingLibrary.next(Format.FLOAT, false))),
                  Map.entry(MATH + "ulp(float)", once(FloatingLibrary.ulp(Format.FLOAT))),
                  Map.entry(
                      MATH + "copySign(double,double)", FloatingLibrary.copySign(Format.DOUBLE)),
                  Map.entry(
                      MATH + "getExponent(double)", FloatingLibrary.getExponent(Format.DOUBLE)),
                  Map.entry(
                      MATH + "nextUp(double)", once(FloatingLibrary.next(Format.DOUBLE, true))),
                  Map.entry(
                      MATH + "nextDown(double)", once(FloatingLibrary.next(Format.DOUBLE, false))),
                  Map.entry(MATH + "ulp(double)", once(FloatingLibrary.ulp(Format.DOUBLE))),
                  longBits("bitCount"),
                  longBits("numberOfLeadingZeros"),
                  longBits("numberOfTrailingZeros"),
                  longBits("reverse"),
                  longBits("reverseBytes"),
                  longBits("highestOneBit"),
                  longBits("lowestOneBit"),
                  longBits("signum"),
                  Map.entry(
                      LONG + "rotateLeft(long,int)",
                      once(args -> rotate(args, BinaryOp.SHL, BinaryOp.USHR))),
                  Map.entry(
                      LONG + "rotateRight(long,int)",
                      once(args -> rotate(args, BinaryOp.USHR, BinaryOp.SHL))),
                  Map.entry(
                      LONG + "compare(long,long)", once(args -> BitLibrary.compare(args, false))),
                  Map.entry(
                      LONG + "compareUnsigned(long,long)",
                      once(args -> BitLibrary.compare(args, true))),
                  Map.entry(
                      LONG + "divideUnsigned(long,long)",
                      once(args -> BitLibrary.longUnsigned(args, false))),
                  Map.entry(
                      LONG + "remainderUnsigned(long,long)",
                      once(args -> BitLibrary.longUnsigned(args, true))),
                  intrinsic(LONG + "min(long,long)", Intrinsic.MIN),
                  intrinsic(LONG + "max(long,long)", Intrinsic.MAX),
                  Map.entry(
                      LONG + "sum(long,long)",
                      args -> new Expr.Binary(BinaryOp.ADD, args.get(0), args.get(1))),
                  intrinsic(
                      DOUBLE + "doubleToRawLongBits(double)", Intrinsic.DOUBLE_TO_RAW_LONG_BITS),
                  Map.entry(
                      DOUBLE + "doubleToLongBits(double)",
                      once(args -> BitLibrary.doubleToLongBits(args.getFirst()))),
                  intrinsic(DOUBLE + "longBitsToDouble(long)", Intrinsic.LONG_BITS_TO_DOUBLE),
                  Map.entry(DOUBLE + "isFinite(double)", once(Library::isFinite)),
                  Map.entry(DOUBLE + "compare(double,double)", once(BitLibrary::doubleCompare)),
                  intrinsic(DOUBLE + "min(double,double)", Intrinsic.MIN),
                  intrinsic(DOUBLE + "max(double,double)", Intrinsic.MAX),
                  Map.entry(
                      DOUBLE + "sum(double,double)",
                      args -> new Expr.Binary(BinaryOp.ADD, args.get(0), args.get(1))))));

  private Library() {}

  /**
   * {@code methods} and the rows of {@link GpuLibrary}, each {@code Gpu}'s method lowered to its
   * intrinsic.
   */
  private static Map<String, Function<List<Expr>, Expr>> withGpu(
      Map<String, Function<List<Expr>, Expr>> methods) {
    Map<String, Function<List<Expr>, Expr>> all = new java.util.HashMap<>(methods);
    GpuLibrary.INTRINSICS.forEach(
        (signature, function) -> all.put(GPU + signature, args -> new Expr.Call(function, args)));
    return all;
  }

  /**
   * {@code methods} and, for each of Math's, StrictMath's method of the same signature: the ones
   * kernels may call are exact, so the two classes give the same bits.
   */
  private static Map<String, Function<List<Expr>, Expr>> withStrictMath(
      Map<String, Function<List<Expr>, Expr>> methods) {
    Map<String, Function<List<Expr>, Expr>> all = new java.util.HashMap<>(methods);
    methods.forEach(
        (signature, lowering) -> {
          if (signature.startsWith(MATH)) {
            all.put("java.lang.StrictMath." + signature.substring(MATH.length()), lowering);
          }
        });
    return Map.copyOf(all);
  }

  private static Map.Entry<String, Function<List<Expr>, Expr>> longBits(String method) {
    return Map.entry(LONG + method + "(long)", once(args -> BitLibrary.longBits(method, args)));
  }

  private static Map.Entry<String, Function<List<Expr>, Expr>> intrinsic(
      String signature, Intrinsic function) {
    return Map.entry(signature, args -> new Expr.Call(function, args));
  }

  /** {@code Float.isFinite} and {@code Double.isFinite}: neither NaN nor infinite. */
  private static Expr isFinite(List<Expr> args) {
    return new Expr.Unary(
        UnaryOp.NOT,
        new Expr.Binary(
            BinaryOp.OR,
            new Expr.Call(Intrinsic.IS_NAN, args),
            new Expr.Call(Intrinsic.IS_INFINITE, args)));
  }

  /**
   * {@code body}, which uses its arguments several times, with each argument evaluated once, in
   * order, into a local ({@link Expr.Let}) unless it is as cheap to read again as a local: nested
   * calls then grow the code linearly, not by a factor per level.
   */
  private static Function<List<Expr>, Expr> once(Function<List<Expr>, Expr> body) {
    return args -> evaluatedOnce(args, body);
  }

  /**
   * {@code body} applied to reads of {@code args}, each argument evaluated once, in order, into a
   * local ({@link Expr.Let}) unless it is a constant, a scalar or a local that no later argument
   * can assign: how library calls and helpers that use an argument several times evaluate it as
   * Java does.
   */
  static Expr evaluatedOnce(List<Expr> args, Function<List<Expr>, Expr> body) {
    List<Expr> reads = new ArrayList<>(args.size());
    List<Local> bound = new ArrayList<>();
    boolean effects =
        args.stream().anyMatch(Library::hasEffect); // a later argument may assign a local
    for (Expr arg : args) {
      Local local =
          cheap(arg) && !(effects && arg instanceof Expr.LocalGet)
              ? null
              : Local.fresh("arg", arg.type());
      reads.add(local == null ? arg : new Expr.LocalGet(local));
      bound.add(local);
    }
    Expr result = body.apply(reads);
    for (int i = args.size() - 1; i >= 0; i--) {
      result = bound.get(i) == null ? result : new Expr.Let(bound.get(i), args.get(i), result);
    }
    return result;
  }

  /** Whether {@code expr} assigns something as it is evaluated. */
  private static boolean hasEffect(Expr expr) {
    return dev.kiln.processor.ir.Walk.anyIn(expr, e -> e instanceof Expr.Effect);
  }

  /**
   * Whether {@code expr} is as cheap to read again as a local, and reads the same each time inside
   * an expression.
   */
  private static boolean cheap(Expr expr) {
    return switch (expr) {
      case Expr.IntConst c -> true;
      case Expr.FloatConst c -> true;
      case Expr.LongConst c -> true;
      case Expr.DoubleConst c -> true;
      case Expr.BoolConst c -> true;
      case Expr.LocalGet get -> true;
      case Expr.ScalarGet get -> true;
      default -> false;
    };
  }

  /** Every signature a row names, {@code java.lang.Math.min(int,int)} and the like. */
  static java.util.Set<String> signatures() {
    return METHODS.keySet();
  }

  /** Whether kernels may call the method with {@code signature}. */
  static boolean has(String signature) {
    return METHODS.containsKey(signature);
  }

  /** The lowered call of the method with {@code signature}, which kernels may call. */
  static Expr call(String signature, List<Expr> args) {
    return METHODS.get(signature).apply(args);
  }

  /** Java's {@code floorMod}: {@code r = a % b}, moved into the divisor's sign. */
  private static Expr floorMod(List<Expr> args) {
    Expr a = args.get(0);
    Expr b = args.get(1);
    Expr r = new Expr.Binary(BinaryOp.REM, a, b);
    Expr signsDiffer =
        new Expr.Binary(BinaryOp.LT, new Expr.Binary(BinaryOp.XOR, r, b), integer(a.type(), 0));
    Expr adjust =
        new Expr.Binary(
            BinaryOp.AND, new Expr.Binary(BinaryOp.NE, r, integer(a.type(), 0)), signsDiffer);
    return new Expr.Conditional(adjust, new Expr.Binary(BinaryOp.ADD, r, b), r);
  }

  /** Java's {@code floorDiv}: the quotient rounded toward negative infinity. */
  private static Expr floorDiv(List<Expr> args) {
    Expr a = args.get(0);
    Expr b = args.get(1);
    Expr q = new Expr.Binary(BinaryOp.DIV, a, b);
    Expr signsDiffer =
        new Expr.Binary(BinaryOp.LT, new Expr.Binary(BinaryOp.XOR, a, b), integer(a.type(), 0));
    Expr inexact = new Expr.Binary(BinaryOp.NE, new Expr.Binary(BinaryOp.MUL, q, b), a);
    return new Expr.Conditional(
        new Expr.Binary(BinaryOp.AND, signsDiffer, inexact),
        new Expr.Binary(BinaryOp.SUB, q, integer(a.type(), 1)),
        q);
  }

  private static Expr integer(PrimType type, int value) {
    return type == PrimType.LONG ? new Expr.LongConst(value) : new Expr.IntConst(value);
  }

  private static Expr rotate(List<Expr> args, BinaryOp toward, BinaryOp back) {
    Expr x = args.get(0);
    Expr distance = args.get(1);
    return new Expr.Binary(
        BinaryOp.OR,
        binary(toward, x, distance, x.type()),
        binary(back, x, new Expr.Unary(UnaryOp.NEG, distance), x.type()));
  }

  /**
   * {@code java.lang.Math.min(int,int)}: how this class knows methods, and linking knows helpers of
   * other classes ({@link dev.kiln.processor.ir.Stmt.Call#helper()}).
   */
  static String signature(ExecutableElement method) {
    return ((TypeElement) method.getEnclosingElement()).getQualifiedName()
        + "."
        + method.getSimpleName()
        + method.getParameters().stream()
            .map(parameter -> parameter.asType().toString())
            .collect(java.util.stream.Collectors.joining(",", "(", ")"));
  }
}
