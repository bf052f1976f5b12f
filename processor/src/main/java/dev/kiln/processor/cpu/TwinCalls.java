package dev.kiln.processor.cpu;

import static org.objectweb.asm.Opcodes.*;

import dev.kiln.processor.ir.AtomicOp;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.PrimType;
import org.objectweb.asm.MethodVisitor;

/**
 * The Java methods a CPU twin calls for the kernel language's library functions and atomics: the
 * very methods the kernel's Java semantics are defined by ({@code Math}, {@code Float}, {@code
 * Integer}, {@code dev.kiln.Gpu}), so that the twin's results are the method's, bit for bit.
 * Subgroups have one invocation on the CPU, as {@code Gpu}'s own methods say.
 */
final class TwinCalls {
  private static final String GPU = "dev/kiln/Gpu";

  private TwinCalls() {}

  /**
   * Calls {@code function} on the arguments already on the stack, of types {@code argTypes}; the
   * subgroup functions that need the invocation's place in its workgroup get it from {@code
   * localIndex} and {@code invocations}.
   */
  static void call(
      MethodVisitor mv,
      Intrinsic function,
      PrimType[] argTypes,
      Runnable localIndex,
      Runnable invocations) {
    PrimType t = argTypes.length == 0 ? PrimType.INT : argTypes[0];
    String d = Bytecode.descriptor(t);
    switch (function) {
      case ABS -> math(mv, "abs", "(" + d + ")" + d);
      case ADD_EXACT -> math(mv, "addExact", "(" + d + d + ")" + d);
      case SUBTRACT_EXACT -> math(mv, "subtractExact", "(" + d + d + ")" + d);
      case MULTIPLY_EXACT -> math(mv, "multiplyExact", "(" + d + d + ")" + d);
      case NEGATE_EXACT -> math(mv, "negateExact", "(" + d + ")" + d);
      case TO_INT_EXACT -> math(mv, "toIntExact", "(J)I");
      case CLAMP -> clamp(mv, argTypes);
      case MIN -> math(mv, "min", "(" + d + d + ")" + d);
      case MAX -> math(mv, "max", "(" + d + d + ")" + d);
      case ROUND -> math(mv, "round", t == PrimType.FLOAT ? "(F)I" : "(D)J");
      case RINT -> floatThroughDouble(mv, t, "rint");
      case SIGNUM -> math(mv, "signum", "(" + d + ")" + d);
      case FLOOR -> floatThroughDouble(mv, t, "floor");
      case CEIL -> floatThroughDouble(mv, t, "ceil");
      case SQRT -> floatThroughDouble(mv, t, "sqrt");
      case FLOAT_TO_RAW_INT_BITS ->
          mv.visitMethodInsn(INVOKESTATIC, "java/lang/Float", "floatToRawIntBits", "(F)I", false);
      case FLOAT_TO_INT_BITS ->
          mv.visitMethodInsn(INVOKESTATIC, "java/lang/Float", "floatToIntBits", "(F)I", false);
      case INT_BITS_TO_FLOAT ->
          mv.visitMethodInsn(INVOKESTATIC, "java/lang/Float", "intBitsToFloat", "(I)F", false);
      case DOUBLE_TO_RAW_LONG_BITS ->
          mv.visitMethodInsn(
              INVOKESTATIC, "java/lang/Double", "doubleToRawLongBits", "(D)J", false);
      case LONG_BITS_TO_DOUBLE ->
          mv.visitMethodInsn(INVOKESTATIC, "java/lang/Double", "longBitsToDouble", "(J)D", false);
      case IS_NAN -> mv.visitMethodInsn(INVOKESTATIC, box(t), "isNaN", "(" + d + ")Z", false);
      case IS_INFINITE ->
          mv.visitMethodInsn(INVOKESTATIC, box(t), "isInfinite", "(" + d + ")Z", false);
      case BIT_COUNT -> mv.visitMethodInsn(INVOKESTATIC, box(t), "bitCount", "(" + d + ")I", false);
      case LEADING_ZEROS ->
          mv.visitMethodInsn(INVOKESTATIC, box(t), "numberOfLeadingZeros", "(" + d + ")I", false);
      case TRAILING_ZEROS ->
          mv.visitMethodInsn(INVOKESTATIC, box(t), "numberOfTrailingZeros", "(" + d + ")I", false);
      case REVERSE_BITS ->
          mv.visitMethodInsn(INVOKESTATIC, box(t), "reverse", "(" + d + ")" + d, false);
      case INVERSE_SQRT, EXP, EXP2, LOG, LOG2, SIN, COS, TAN, TANH ->
          mv.visitMethodInsn(INVOKESTATIC, GPU, gpuName(function), "(F)F", false);
      case POW, ATAN2 -> mv.visitMethodInsn(INVOKESTATIC, GPU, gpuName(function), "(FF)F", false);
      case FMA -> math(mv, "fma", "(FFF)F");
      case UNPACK_HALF -> {
        mv.visitInsn(I2S);
        mv.visitMethodInsn(INVOKESTATIC, "java/lang/Float", "float16ToFloat", "(S)F", false);
      }
      case HALF_CONVERSION_EXACT -> mv.visitInsn(ICONST_1);
      // subgroups of the twin's last parameter's lanes, numbered through the workgroup
      case SUBGROUP_SIZE -> mv.visitVarInsn(ILOAD, TwinFrame.SUBGROUP_SIZE);
      case SUBGROUP_INVOCATION -> {
        localIndex.run();
        mv.visitVarInsn(ILOAD, TwinFrame.SUBGROUP_SIZE);
        mv.visitInsn(IREM);
      }
      case SUBGROUP_ID -> {
        localIndex.run();
        mv.visitVarInsn(ILOAD, TwinFrame.SUBGROUP_SIZE);
        mv.visitInsn(IDIV);
      }
      case NUM_SUBGROUPS -> {
        invocations.run();
        mv.visitVarInsn(ILOAD, TwinFrame.SUBGROUP_SIZE);
        mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "ceilDiv", "(II)I", false);
      }
      // statements of their own, run once per subgroup (TwinSubgroups)
      case SUBGROUP_ADD,
          SUBGROUP_MIN,
          SUBGROUP_MAX,
          SUBGROUP_BROADCAST,
          SUBGROUP_BALLOT,
          SUBGROUP_ANY,
          SUBGROUP_ALL,
          SUBGROUP_ELECT,
          SUBGROUP_SHUFFLE,
          SUBGROUP_SHUFFLE_XOR,
          SUBGROUP_SHUFFLE_UP,
          SUBGROUP_SHUFFLE_DOWN,
          SUBGROUP_INCLUSIVE_ADD,
          SUBGROUP_EXCLUSIVE_ADD,
          SUBGROUP_CLUSTERED_ADD,
          SUBGROUP_CLUSTERED_MIN,
          SUBGROUP_CLUSTERED_MAX,
          SUBGROUP_PARTITION,
          SUBGROUP_PARTITIONED_ADD,
          SUBGROUP_PARTITIONED_MIN,
          SUBGROUP_PARTITIONED_MAX ->
          throw new Unsupported("a subgroup operation inside an expression");
    }
  }

  /**
   * {@code Math.clamp} of longs, floats or doubles: lowering widens {@code clamp(long, int, int)}'s
   * bounds.
   */
  private static void clamp(MethodVisitor mv, PrimType[] types) {
    if (types[0] == PrimType.INT || types[0] != types[1] || types[1] != types[2]) {
      throw new Unsupported("Math.clamp of " + java.util.Arrays.toString(types));
    }
    String d = Bytecode.descriptor(types[0]);
    math(mv, "clamp", "(" + d + d + d + ")" + d);
  }

  /**
   * A double function; a float argument goes through double and back, exactly, as Gpu's own methods
   * do.
   */
  private static void floatThroughDouble(MethodVisitor mv, PrimType type, String name) {
    if (type == PrimType.FLOAT) {
      mv.visitInsn(F2D);
      math(mv, name, "(D)D");
      mv.visitInsn(D2F);
    } else {
      math(mv, name, "(D)D");
    }
  }

  private static String gpuName(Intrinsic function) {
    return switch (function) {
      case INVERSE_SQRT -> "inverseSqrt";
      case EXP -> "exp";
      case EXP2 -> "exp2";
      case LOG -> "log";
      case LOG2 -> "log2";
      case SIN -> "sin";
      case COS -> "cos";
      case TAN -> "tan";
      case TANH -> "tanh";
      case POW -> "pow";
      case ATAN2 -> "atan2";
      default -> throw new IllegalArgumentException(function.name());
    };
  }

  private static String box(PrimType type) {
    return switch (type) {
      case FLOAT -> "java/lang/Float";
      case DOUBLE -> "java/lang/Double";
      case LONG -> "java/lang/Long";
      default -> "java/lang/Integer";
    };
  }

  private static void math(MethodVisitor mv, String name, String descriptor) {
    mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", name, descriptor, false);
  }

  /**
   * {@code Gpu.atomic*} on the array, index, (expected,) value on the stack; leaves the previous
   * value.
   */
  static void atomic(MethodVisitor mv, AtomicOp op, PrimType element) {
    String d = Bytecode.descriptor(element);
    String array = Bytecode.arrayDescriptor(element);
    String descriptor =
        op == AtomicOp.COMPARE_EXCHANGE
            ? "(" + array + "I" + d + d + ")" + d
            : "(" + array + "I" + d + ")" + d;
    mv.visitMethodInsn(INVOKESTATIC, GPU, op.intrinsic(), descriptor, false);
  }
}
