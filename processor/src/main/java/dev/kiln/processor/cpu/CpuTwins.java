package dev.kiln.processor.cpu;

import static org.objectweb.asm.Opcodes.*;

import dev.kiln.abi.LaunchAbi;
import dev.kiln.processor.ir.Program;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;

/**
 * The CPU twins of one class's kernels and groups, as the class file {@code <Owner>$KilnCpu} with
 * one public static method per kernel or group ({@link TwinMethod}), which the CPU backend finds by
 * that name. Bytecode rather than Java source: javac attributes a kernel's body, which the IR comes
 * from, after annotation processing has ended, when a new source file would no longer be compiled.
 */
public final class CpuTwins {
  /**
   * A program to twin: the method's name (the kernel's or group's), its program before
   * vectorization, whether the IR gates its arms itself (a group's), the names of the launch's
   * parameters in order, and the name the runtime gives it in messages ({@code Owner#name}).
   */
  public record Source(
      String name, Program program, boolean gated, List<String> params, String kernelName) {}

  /**
   * What {@link #write} made: the class file, or null, and why each program it left out has no
   * twin.
   */
  public record Written(byte[] classFile, Map<String, String> leftOut) {}

  private CpuTwins() {}

  /**
   * The twin class of the kernels of one source file: named {@code binaryName}, its methods' line
   * table pointing into {@code sourceFile} (the kernel class's file name), so that a stack trace's
   * top frame reads {@code Owner$KilnCpu.name(Owner.java:line)} at the access that faulted (a line
   * of a helper inlined from another file keeps its own number).
   */
  public static Written write(String binaryName, String sourceFile, List<Source> sources) {
    ClassWriter writer = classWriter();
    String internal = binaryName.replace('.', '/');
    writer.visit(
        V21,
        ACC_PUBLIC | ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC,
        internal,
        null,
        "java/lang/Object",
        null);
    writer.visitSource(sourceFile, null);
    Map<String, String> leftOut = new TreeMap<>();
    List<String> written = new ArrayList<>();
    for (Source source : sources) {
      if (written.contains(source.name())) {
        leftOut.put(source.name(), "another kernel or group has its method name");
        continue;
      }
      // each method goes through a scratch writer first, so that one that fails leaves nothing
      // behind
      try {
        ClassWriter scratch = classWriter();
        scratch.visit(V21, ACC_PUBLIC, internal, null, "java/lang/Object", null);
        method(scratch, source);
        scratch.visitEnd();
        scratch.toByteArray(); // frames and sizes computed: the method is sound
        method(writer, source);
        written.add(source.name());
      } catch (Unsupported e) {
        leftOut.put(source.name(), e.getMessage());
      } catch (RuntimeException e) { // ASM's MethodTooLargeException among them
        leftOut.put(source.name(), e.getClass().getSimpleName() + ": " + e.getMessage());
      }
    }
    writer.visitEnd();
    return new Written(written.isEmpty() ? null : writer.toByteArray(), leftOut);
  }

  /**
   * A writer that computes frames and sizes without loading classes: only arrays and exceptions
   * meet in frames.
   */
  private static ClassWriter classWriter() {
    return new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
      @Override
      protected String getCommonSuperClass(String a, String b) {
        return "java/lang/Object";
      }
    };
  }

  private static void method(ClassWriter writer, Source source) {
    MethodVisitor mv =
        writer.visitMethod(
            ACC_PUBLIC | ACC_STATIC,
            source.name(),
            LaunchAbi.TWIN_TYPE.toMethodDescriptorString(),
            null,
            null);
    new TwinMethod(
            mv,
            SubgroupStatements.rewrite(source.program()),
            source.gated(),
            source.params(),
            source.kernelName())
        .emit();
  }
}
