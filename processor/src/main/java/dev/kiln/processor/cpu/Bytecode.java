package dev.kiln.processor.cpu;

import static org.objectweb.asm.Opcodes.*;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.PrimType;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * JVM instructions for the kernel language's types, as javac would write them for the same Java:
 * constants, comparisons that treat NaN as Java does, primitive conversions (byte, short and char
 * held as ints), and the opcodes of locals and arrays by type.
 */
final class Bytecode {
  private Bytecode() {}

  /** Pushes 1 or 0 for {@code left op right} on the stack, NaN comparing as Java does. */
  static void compare(MethodVisitor mv, BinaryOp op, PrimType type) {
    Label no = new Label();
    Label end = new Label();
    switch (type) {
      case LONG -> {
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(negatedZeroTest(op), no);
      }
      case FLOAT, DOUBLE -> { // NaN must make <, <=, >, >=, == false and != true
        boolean greaterOnNaN = op == BinaryOp.LT || op == BinaryOp.LE;
        mv.visitInsn(
            type == PrimType.FLOAT
                ? (greaterOnNaN ? FCMPG : FCMPL)
                : (greaterOnNaN ? DCMPG : DCMPL));
        mv.visitJumpInsn(negatedZeroTest(op), no);
      }
      default ->
          mv.visitJumpInsn(
              switch (op) {
                case EQ -> IF_ICMPNE;
                case NE -> IF_ICMPEQ;
                case LT -> IF_ICMPGE;
                case LE -> IF_ICMPGT;
                case GT -> IF_ICMPLE;
                case GE -> IF_ICMPLT;
                default -> throw new IllegalStateException(op.name());
              },
              no);
    }
    push(mv, 1);
    mv.visitJumpInsn(GOTO, end);
    mv.visitLabel(no);
    push(mv, 0);
    mv.visitLabel(end);
  }

  /** The jump on a comparison result (-1, 0, 1) taken where {@code op} does not hold. */
  static int negatedZeroTest(BinaryOp op) {
    return switch (op) {
      case EQ -> IFNE;
      case NE -> IFEQ;
      case LT -> IFGE;
      case LE -> IFGT;
      case GT -> IFLE;
      case GE -> IFLT;
      default -> throw new IllegalStateException(op.name());
    };
  }

  /**
   * Java's primitive conversion from {@code from} to {@code to}, byte, short and char narrowing an
   * int.
   */
  static void convert(MethodVisitor mv, PrimType from, PrimType to) {
    PrimType source = kind(from);
    PrimType target = kind(to);
    if (source != target) {
      int opcode =
          switch (source) {
            case INT -> target == PrimType.LONG ? I2L : target == PrimType.FLOAT ? I2F : I2D;
            case LONG -> target == PrimType.INT ? L2I : target == PrimType.FLOAT ? L2F : L2D;
            case FLOAT -> target == PrimType.INT ? F2I : target == PrimType.LONG ? F2L : F2D;
            case DOUBLE -> target == PrimType.INT ? D2I : target == PrimType.LONG ? D2L : D2F;
            default -> throw new Unsupported("a conversion from " + from + " to " + to);
          };
      mv.visitInsn(opcode);
    }
    switch (to) {
      case BYTE -> mv.visitInsn(I2B);
      case SHORT -> mv.visitInsn(I2S);
      case CHAR -> mv.visitInsn(I2C);
      default -> {}
    }
  }

  /** The JVM's computational kind: byte, short, char and boolean are ints. */
  static PrimType kind(PrimType type) {
    return switch (type) {
      case BOOLEAN, BYTE, SHORT, CHAR, INT -> PrimType.INT;
      default -> type;
    };
  }

  static void push(MethodVisitor mv, int value) {
    if (value >= -1 && value <= 5) {
      mv.visitInsn(ICONST_0 + value);
    } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
      mv.visitIntInsn(BIPUSH, value);
    } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
      mv.visitIntInsn(SIPUSH, value);
    } else {
      mv.visitLdcInsn(value);
    }
  }

  static void zero(MethodVisitor mv, PrimType type) {
    switch (kind(type)) {
      case LONG -> mv.visitInsn(LCONST_0);
      case FLOAT -> mv.visitInsn(FCONST_0);
      case DOUBLE -> mv.visitInsn(DCONST_0);
      default -> mv.visitInsn(ICONST_0);
    }
  }

  static void pop(MethodVisitor mv, PrimType type) {
    mv.visitInsn(kind(type) == PrimType.LONG || type == PrimType.DOUBLE ? POP2 : POP);
  }

  /** {@code Arrays.fill(array, value)} for the array and value on the stack. */
  static void fill(MethodVisitor mv, PrimType element) {
    String array = arrayDescriptor(element);
    String value = array.substring(1);
    mv.visitMethodInsn(INVOKESTATIC, "java/util/Arrays", "fill", "(" + array + value + ")V", false);
  }

  static int load(PrimType type) {
    return switch (kind(type)) {
      case LONG -> LLOAD;
      case FLOAT -> FLOAD;
      case DOUBLE -> DLOAD;
      default -> ILOAD;
    };
  }

  static int store(PrimType type) {
    return switch (kind(type)) {
      case LONG -> LSTORE;
      case FLOAT -> FSTORE;
      case DOUBLE -> DSTORE;
      default -> ISTORE;
    };
  }

  static int arrayLoad(PrimType element) {
    return switch (element) {
      case BOOLEAN, BYTE -> BALOAD;
      case SHORT -> SALOAD;
      case CHAR -> CALOAD;
      case INT -> IALOAD;
      case LONG -> LALOAD;
      case FLOAT -> FALOAD;
      case DOUBLE -> DALOAD;
    };
  }

  static int arrayStore(PrimType element) {
    return switch (element) {
      case BOOLEAN, BYTE -> BASTORE;
      case SHORT -> SASTORE;
      case CHAR -> CASTORE;
      case INT -> IASTORE;
      case LONG -> LASTORE;
      case FLOAT -> FASTORE;
      case DOUBLE -> DASTORE;
    };
  }

  /**
   * The JVM descriptor letter of a kernel-language type (byte, short and char are held as ints).
   */
  static String descriptor(PrimType type) {
    return switch (type) {
      case BOOLEAN -> "Z";
      case BYTE, SHORT, CHAR, INT -> "I";
      case LONG -> "J";
      case FLOAT -> "F";
      case DOUBLE -> "D";
    };
  }

  /** The descriptor of an array of {@code element}s as Java holds it. */
  static String arrayDescriptor(PrimType element) {
    return "["
        + switch (element) {
          case BYTE -> "B";
          case SHORT -> "S";
          case CHAR -> "C";
          default -> descriptor(element);
        };
  }

  /**
   * A loop over an int {@code counter}, tested at the top as javac writes one: {@code init} sets
   * the counter (and what the loop needs before it), the loop leaves once the counter reaches what
   * {@code bound} pushes, runs {@code body}, then at {@code next} (where given: where the body's
   * {@code continue} goes) {@code advance}s the counter, by one where {@code advance} is null.
   */
  static void countedLoop(
      MethodVisitor mv,
      int counter,
      Runnable init,
      Runnable bound,
      Label next,
      Runnable body,
      Runnable advance) {
    Label top = new Label();
    Label exit = new Label();
    init.run();
    mv.visitLabel(top);
    mv.visitVarInsn(ILOAD, counter);
    bound.run();
    mv.visitJumpInsn(IF_ICMPGE, exit);
    body.run();
    if (next != null) {
      mv.visitLabel(next);
    }
    if (advance == null) {
      mv.visitIincInsn(counter, 1);
    } else {
      advance.run();
    }
    mv.visitJumpInsn(GOTO, top);
    mv.visitLabel(exit);
  }
}
