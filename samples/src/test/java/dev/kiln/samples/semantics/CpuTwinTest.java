package dev.kiln.samples.semantics;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import corpus.FaultsKernels;
import dev.kiln.Grid;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.LaunchAbi;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The CPU twins: barrier kernels in loops and branches give what the kernel methods and Vulkan
 * give; every kernel and group of the corpus has a twin (none falls back to the methods silently);
 * a fault names kernel, buffer, index and line, and the other invocations still run, as on the GPU.
 */
class CpuTwinTest extends BothDevices {
  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 1000})
  void barriersInBranches(int n) {
    compare("branches +", n, r -> new Object[] {Bits.randomInts(r, n)},
        (d, a) -> TwinShapesKernels.branches(d, n, (int[]) a[0], 1));
    compare("branches -", n, r -> new Object[] {Bits.randomInts(r, n)},
        (d, a) -> TwinShapesKernels.branches(d, n, (int[]) a[0], 0));
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 17, 1000})
  void barriersInLoopsThatBreakAndContinue(int n) {
    for (int[] countAndStop : new int[][] {{0, 9}, {5, 9}, {9, 4}, {12, 12}}) {
      int side = (int) Math.ceil(Math.sqrt(n));
      compare("rounds " + Arrays.toString(countAndStop), n, r -> new Object[] {Bits.randomInts(r, side * side)},
          (d, a) -> TwinShapesKernels.rounds(d, Grid.of(side, side), (int[]) a[0], countAndStop[0], countAndStop[1]));
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 31, 33, 1000})
  void aUniformReturnBeforeABarrier(int n) {
    for (int limit : new int[] {0, 1, 1 << 20}) {
      compare("uniformReturn " + limit, n, r -> new Object[] {Bits.randomFloats(r, n, 10f)},
          (d, a) -> TwinShapesKernels.uniformReturn(d, n, (float[]) a[0], limit));
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 31, 33, 1000})
  void aReturnAndALoopABufferDecides(int n) {
    for (int[] limits : new int[][] {{0, 3}, {1, 2}, {1 << 20, 0}, {7, 5}}) {
      compare("bufferDecidedReturn " + Arrays.toString(limits), n, r -> new Object[] {Bits.randomFloats(r, n, 10f)},
          (d, a) -> TwinShapesKernels.bufferDecidedReturn(d, n, (float[]) a[0], limits.clone()));
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 1000})
  void workgroupValuesAndBoundedWorkItemLoops(int n) {
    for (int[] boundAndDivisor : new int[][] {{0, 0}, {17, 5}, {64, 2}, {1000, -4}, {-3, 9}}) {
      compare("workgroupValues " + Arrays.toString(boundAndDivisor), n, r -> new Object[] {Bits.randomInts(r, n)},
          (d, a) -> TwinShapesKernels.workgroupValues(d, n, (int[]) a[0], boundAndDivisor[0], boundAndDivisor[1]));
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 1000})
  void helpersWithSubgroupOperationsOrBarriersUnderABranch(int n) {
    for (int subgroups : new int[] {0, 1}) {
      compare("helperFolds " + subgroups, n, r -> new Object[] {Bits.randomInts(r, n)},
          (d, a) -> TwinShapesKernels.helperFolds(d, n, (int[]) a[0], subgroups));
    }
  }

  @ParameterizedTest(name = "n = {0}")
  @ValueSource(ints = {1, 63, 65, 1000})
  void helpersWithLoopsInsideExpressions(int n) {
    for (int turns : new int[] {0, 3}) {
      compare("loopsInExpressions " + turns, n, r -> new Object[] {Bits.randomInts(r, n)},
          (d, a) -> TwinShapesKernels.loopsInExpressions(d, n, (int[]) a[0], turns));
    }
  }

  /**
   * HotSpot compiles a long loop of a method called once (a twin runs a launch's workgroups in one
   * call) only by replacing its frame on the stack, which it refuses where the operand stack holds
   * values at the loop's head: such a twin stays interpreted, some 50 times slower. Every loop head
   * of every twin of the corpus and of {@link TwinShapes} (its frame in the class file) must hold an
   * empty stack.
   */
  @Test
  void everyTwinsLoopsStartOnAnEmptyStack() throws Exception {
    List<Class<?>> launchers = new ArrayList<>(corpusLaunchers());
    launchers.add(TwinShapesKernels.class);
    Map<String, Integer> depths = new TreeMap<>();
    for (Class<?> launcher : launchers) {
      String owner = launcher.getName().substring(0, launcher.getName().length() - "Kernels".length());
      try (InputStream in = launcher.getClassLoader().getResourceAsStream(owner.replace('.', '/') + "$KilnCpu.class")) {
        if (in != null) { // else a class without kernels of its own
          new ClassReader(in).accept(new LoopHeads(owner, depths), ClassReader.EXPAND_FRAMES);
        }
      }
    }
    assertEquals(Map.of(), depths.entrySet().stream().filter(e -> e.getValue() != 0)
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)), "loop heads with values on the JVM stack");
    assertTrue(depths.size() > 100, "only " + depths.size() + " loop heads");
    assertTrue(depths.keySet().stream().filter(h -> h.contains(".kernel$loopsInExpressions@")).count() >= 5,
        "the loops of TwinShapes.loopsInExpressions: " + depths.keySet());
  }

  /**
   * The loop heads of a class's methods (the targets of backward jumps) and the operand stack's
   * depth there, from the class file's frames.
   */
  private static final class LoopHeads extends ClassVisitor {
    private final String owner;
    private final Map<String, Integer> depths;

    LoopHeads(String owner, Map<String, Integer> depths) {
      super(Opcodes.ASM9);
      this.owner = owner;
      this.depths = depths;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
      return new MethodVisitor(Opcodes.ASM9) {
        private final Map<Label, Integer> seen = new HashMap<>();
        private final Map<Label, Integer> framed = new HashMap<>();
        private final List<Label> unframed = new ArrayList<>();

        @Override
        public void visitLabel(Label label) {
          seen.put(label, seen.size());
          unframed.add(label);
        }

        @Override
        public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
          unframed.forEach(label -> framed.put(label, numStack)); // a frame follows its labels
          unframed.clear();
        }

        @Override
        public void visitJumpInsn(int opcode, Label target) {
          if (seen.containsKey(target)) { // a backward jump: its target heads a loop
            depths.put(owner + "." + name + "@" + seen.get(target), framed.get(target));
          }
        }
      };
    }
  }

  @Test
  void everyCorpusKernelAndGroupHasATwin() throws Exception {
    List<String> missing = new ArrayList<>();
    int twins = 0;
    List<Class<?>> launchers = new ArrayList<>(corpusLaunchers());
    launchers.add(TwinShapesKernels.class);
    for (Class<?> launcher : launchers) {
      for (Field field : launcher.getDeclaredFields()) {
        if (field.getType() != KernelSpec.class) {
          continue;
        }
        field.setAccessible(true);
        KernelSpec spec = (KernelSpec) field.get(null);
        String method = (spec.arms().isEmpty() ? "kernel$" : "group$") + spec.name();
        try {
          Method twin = Class.forName(spec.owner().getName() + "$KilnCpu").getMethod(method,
              LaunchAbi.TWIN_TYPE.parameterArray());
          assertTrue(Modifier.isStatic(twin.getModifiers()), twin.toString());
          twins++;
        } catch (ClassNotFoundException | NoSuchMethodException e) {
          missing.add(spec + " (" + method + ")");
        }
      }
    }
    assertEquals(List.of(), missing, "kernels and groups without a CPU twin");
    assertTrue(twins > 80, "only " + twins + " twins");
  }

  /** The launchers of the corpus's classes: the processor test corpus compiled into these tests. */
  private static List<Class<?>> corpusLaunchers() throws Exception {
    Path corpus = Path.of(FaultsKernels.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .resolve("corpus");
    List<Class<?>> classes = new ArrayList<>();
    try (Stream<Path> files = Files.list(corpus)) {
      for (Path file : files.sorted().toList()) {
        String name = file.getFileName().toString();
        if (name.endsWith("Kernels.class")) {
          classes.add(Class.forName("corpus." + name.substring(0, name.length() - ".class".length())));
        }
      }
    }
    return classes;
  }

  @Test
  void aFaultNamesKernelBufferIndexAndLineAndTheOtherInvocationsRun() {
    int n = 1000;
    float[] out = new float[n];
    float[] canary = new float[n];
    ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> FaultsKernels.writeShifted(cpu, n, out, canary, 5));
    String message = thrown.getMessage();
    assertTrue(message.matches("Index 10\\d\\d out of bounds for length 1000 of buffer 'out' in kernel "
        + "corpus\\.Faults#writeShifted \\(line \\d+\\)"), message);
    float[] expected = new float[n];
    Arrays.fill(expected, 5, n, 1f);
    Bits.assertSameBits("the in-bounds writes", expected, out);
    ArithmeticException division = assertThrows(ArithmeticException.class,
        () -> FaultsKernels.divide(cpu, 10, new int[10], new int[10], new int[10], new int[10]));
    assertEquals("/ by zero in kernel corpus.Faults#divide", division.getMessage());
    ArrayIndexOutOfBoundsException local = assertThrows(ArrayIndexOutOfBoundsException.class,
        () -> corpus.PrivateArraysKernels.outOfBounds(cpu, 10, new int[10], 4));
    assertEquals("Index 4 out of bounds for length 4 of a local array in kernel corpus.PrivateArrays#outOfBounds"
        + " (line 59)", local.getMessage());
  }

  /**
   * Once a site is hot, the JIT may throw a preallocated exception without a message: the fault's
   * message is made from the access the twin recorded, never from the exception's.
   */
  @Test
  void aFaultWithoutAMessageIsNamedFromTheRecordedAccess() {
    RuntimeException named = dev.kiln.abi.CpuFaults.at(new ArrayIndexOutOfBoundsException(), "in|buffer|7\nout|buffer|12\n",
        1, new int[5], 9, "p.K#k", 0);
    assertEquals("Index 9 out of bounds for length 5 of buffer 'out' in kernel p.K#k (line 12)", named.getMessage());
    assertTrue(named instanceof ArrayIndexOutOfBoundsException);
    assertEquals("/ by zero in kernel p.K#k",
        dev.kiln.abi.CpuFaults.at(new ArithmeticException(), "", -1, null, 0, "p.K#k", 0).getMessage());
    assertEquals("integer overflow in kernel p.K#k",
        dev.kiln.abi.CpuFaults.at(new ArithmeticException("integer overflow"), "", -1, null, 0, "p.K#k", 0).getMessage());
    String copy = dev.kiln.abi.CpuFaults.copySite("in", true, "staged", false, 7);
    assertEquals("arraycopy: last destination index 9 out of bounds for short[8] (a local array) in kernel p.K#k (line 7)",
        dev.kiln.abi.CpuFaults.at(new ArrayIndexOutOfBoundsException(
            "arraycopy: last destination index 9 out of bounds for short[8]"), copy, 0, new short[4], 0, "p.K#k", 0)
            .getMessage());
    assertEquals("arraycopy: a range out of bounds (buffer 'in' or a local array) in kernel p.K#k (line 7)",
        dev.kiln.abi.CpuFaults.at(new ArrayIndexOutOfBoundsException(), copy, 0, new short[4], 0, "p.K#k", 0).getMessage());
  }
}
