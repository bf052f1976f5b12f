package dev.kiln.samples;

import dev.kiln.abi.LaunchAbi;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Kernel classes as a device that flushes subnormal floats computes them: every float a kernel
 * computes with {@code + - * / %} goes through {@link #flush}, so no operation gives a subnormal
 * result. From inputs and constants that are not subnormal, no other value can be one either
 * (conversions from int, {@code Math.min}, {@code abs}, {@code floor} of such values), so whether a
 * device also takes subnormal inputs as zero does not matter. The fuzzer runs a kernel's twin on the
 * CPU backend to tell a device's documented flush (README, known driver gaps) from a real difference.
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
  static ClassLoader loader(URL compiled, String prefix, ClassLoader parent) {
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

  /** The class with {@link #flush} after every float arithmetic result. */
  static byte[] flushing(byte[] bytes) {
    ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9, writer) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
          String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature, exceptions)) {
          @Override
          public void visitInsn(int opcode) {
            super.visitInsn(opcode);
            switch (opcode) {
              case Opcodes.FADD, Opcodes.FSUB, Opcodes.FMUL, Opcodes.FDIV, Opcodes.FREM ->
                  super.visitMethodInsn(Opcodes.INVOKESTATIC, FlushingTwin.class.getName().replace('.', '/'), "flush",
                      "(F)F", false);
              default -> {}
            }
          }
        };
      }
    }, 0);
    return writer.toByteArray();
  }
}
