package dev.kiln.samples.testing;

import dev.kiln.abi.LaunchAbi;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Kernel classes as a device that flushes subnormal floats computes them. The model is NVIDIA's
 * (driver 580 on the H200, measured operation by operation, docs/PERFORMANCE.md), for a device that
 * does not offer to preserve 32-bit subnormals:
 * <ul>
 *   <li>every float instruction reads a subnormal operand as a zero of its sign: arithmetic,
 *       negation, comparisons, {@code min}/{@code max}, {@code fma} and the conversion to double;
 *   <li>its results are flushed to zero too, but for the conversion from double: so Kiln's division,
 *       which divides in double (correctly rounded), gives Java's subnormal quotients, and so does
 *       {@code fma}, which the driver computes in double;
 *   <li>Kiln's remainder, a long division, gives the dividend unchanged where it is below the
 *       divisor, and its flushed result otherwise;
 *   <li>moves, loads and stores and what Kiln spells out in integer operations ({@code abs},
 *       {@code floor}, {@code round}, {@code copySign}, the float's bits) are exact.
 * </ul>
 * The fuzzer runs a kernel's twin on the CPU backend to tell this documented flush
 * (docs/DRIVER-GAPS.md) from a real difference.
 */
public final class FlushingTwin {
  private FlushingTwin() {}

  /** {@code value}, or zero of its sign where it is subnormal. */
  public static float flush(float value) {
    return Math.abs(value) < Float.MIN_NORMAL ? value * 0f : value;
  }

  /**
   * A loader of the classes in {@code compiled} whose name starts with {@code prefix}, itself first:
   * classes of kernels (those with a launcher {@code <name>Kernels} beside them) and their CPU twins
   * flushing, the others as they are.
   */
  public static ClassLoader loader(URL compiled, String prefix, ClassLoader parent) {
    return new URLClassLoader(new URL[] {compiled}, parent) {
      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(prefix)) {
          return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
          Class<?> loaded = findLoadedClass(name);
          if (loaded == null) {
            byte[] bytes = bytes(this, name);
            // a kernel class has its launcher beside it; its CPU twin, which the CPU backend runs, is
            // named after it (without this, the twin computed unflushed and no flush was explained)
            String kernelClass = name.endsWith(LaunchAbi.TWINS_SUFFIX)
                ? name.substring(0, name.length() - LaunchAbi.TWINS_SUFFIX.length()) : name;
            boolean kernels = getResource(kernelClass.replace('.', '/') + "Kernels.class") != null;
            byte[] code = kernels ? flushing(bytes) : bytes;
            loaded = defineClass(name, code, 0, code.length);
          }
          return loaded;
        }
      }
    };
  }

  private static byte[] bytes(ClassLoader loader, String name) throws ClassNotFoundException {
    try (InputStream in = loader.getResourceAsStream(name.replace('.', '/') + ".class")) {
      if (in == null) {
        throw new ClassNotFoundException(name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Kiln's {@code Math.min} (Calls.minMax) on operands read as the device reads them; it picks one unchanged. */
  public static float min(float a, float b) {
    return pick(a, b, true);
  }

  /** Kiln's {@code Math.max}, as {@link #min}. */
  public static float max(float a, float b) {
    return pick(a, b, false);
  }

  private static float pick(float a, float b, boolean min) {
    float x = flush(a);
    float y = flush(b);
    if (Float.isNaN(x) || Float.isNaN(y)) {
      return Float.NaN;
    }
    if (x == y) { // zeros of either sign: min takes a negative one, max a positive one
      return (1f / x < 0f) == min ? a : b;
    }
    return (min ? x < y : x > y) ? a : b;
  }

  /** {@code Math.fma} on flushed operands; NVIDIA computes it in double, so its result stays unflushed. */
  public static float fma(float a, float b, float c) {
    return Math.fma(flush(a), flush(b), flush(c));
  }

  /**
   * Kiln's remainder (FloatRemainder) on operands read as the device reads them: NaN for a divisor
   * read as zero, the dividend unchanged where its magnitude (flushed) is below the divisor's, else
   * the long division's result, flushed.
   */
  public static float remainder(float x, float y) {
    float divisor = flush(y);
    if (Float.isNaN(x) || Float.isNaN(y) || Float.isInfinite(x) || divisor == 0f) {
      return Float.NaN;
    }
    return Math.abs(flush(x)) >= Math.abs(divisor) ? flush(x % y) : x;
  }

  private static final String SELF = FlushingTwin.class.getName().replace('.', '/');

  /** The class computing as the model above says. */
  static byte[] flushing(byte[] bytes) {
    ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9, writer) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
          String[] exceptions) {
        return new Flushing(super.visitMethod(access, name, descriptor, signature, exceptions));
      }
    }, 0);
    return writer.toByteArray();
  }

  /**
   * Rewrites one method's float instructions. A conversion to double is held back one instruction:
   * where it feeds {@code Math.floor}, {@code ceil} or {@code rint} (the twin's {@code Gpu.floor},
   * integer operations on the device) it stays exact.
   */
  private static final class Flushing extends MethodVisitor {
    private boolean heldToDouble;

    Flushing(MethodVisitor next) {
      super(Opcodes.ASM9, next);
    }

    private void flushTop() {
      super.visitMethodInsn(Opcodes.INVOKESTATIC, SELF, "flush", "(F)F", false);
    }

    private void flushBoth() {
      flushTop();
      super.visitInsn(Opcodes.SWAP);
      flushTop();
      super.visitInsn(Opcodes.SWAP);
    }

    /** Emits a held conversion; {@code exact}: unflushed. */
    private void release(boolean exact) {
      if (heldToDouble) {
        heldToDouble = false;
        if (!exact) {
          flushTop();
        }
        super.visitInsn(Opcodes.F2D);
      }
    }

    @Override
    public void visitInsn(int opcode) {
      release(false);
      switch (opcode) {
        case Opcodes.F2D -> heldToDouble = true;
        case Opcodes.FREM -> super.visitMethodInsn(Opcodes.INVOKESTATIC, SELF, "remainder", "(FF)F", false);
        case Opcodes.FADD, Opcodes.FSUB, Opcodes.FMUL -> {
          flushBoth();
          super.visitInsn(opcode);
          flushTop();
        }
        case Opcodes.FDIV, Opcodes.FCMPL, Opcodes.FCMPG -> {
          flushBoth();
          super.visitInsn(opcode);
        }
        case Opcodes.FNEG -> {
          flushTop();
          super.visitInsn(opcode);
        }
        default -> super.visitInsn(opcode);
      }
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
      boolean math = owner.equals("java/lang/Math");
      release(math && descriptor.equals("(D)D") && (name.equals("floor") || name.equals("ceil") || name.equals("rint")));
      boolean modelled = math && switch (name + descriptor) {
        case "min(FF)F", "max(FF)F", "fma(FFF)F" -> true;
        default -> false;
      };
      super.visitMethodInsn(opcode, modelled ? SELF : owner, name, descriptor, isInterface);
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
      release(false);
      super.visitVarInsn(opcode, varIndex);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
      release(false);
      super.visitFieldInsn(opcode, owner, name, descriptor);
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
      release(false);
      super.visitIntInsn(opcode, operand);
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      release(false);
      super.visitTypeInsn(opcode, type);
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
      release(false);
      super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitLabel(Label label) {
      release(false);
      super.visitLabel(label);
    }

    @Override
    public void visitLdcInsn(Object value) {
      release(false);
      super.visitLdcInsn(value);
    }

    @Override
    public void visitIincInsn(int varIndex, int increment) {
      release(false);
      super.visitIincInsn(varIndex, increment);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
      release(false);
      super.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
      release(false);
      super.visitLookupSwitchInsn(dflt, keys, labels);
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
      release(false);
      super.visitMultiANewArrayInsn(descriptor, numDimensions);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap,
        Object... arguments) {
      release(false);
      super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
    }

    @Override
    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
      release(false);
      super.visitFrame(type, numLocal, local, numStack, stack);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
      release(false);
      super.visitMaxs(maxStack, maxLocals);
    }
  }
}
