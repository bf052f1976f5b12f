package dev.kiln.backend;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.AliasConflict;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.LaunchAbi;
import dev.kiln.abi.LaunchBound;
import dev.kiln.abi.LaunchProof;
import dev.kiln.abi.SplitForm;
import dev.kiln.annotations.Access;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntUnaryOperator;

/**
 * A kernel's SPIR-V module, loaded from beside its class, with the facts backends read off it: the
 * capabilities it declares (64-bit floats need a device feature), whether it waits at barriers
 * (the CPU backend then runs a workgroup's invocations side by side), its workgroup memory, and
 * how many consecutive elements along x each invocation handles (the processor says so in an
 * {@code OpModuleProcessed "kiln.elementsPerInvocation N"}; 1 without it), which sizes the dispatch,
 * where it adds floats and updates longs atomically (each place needs its own device feature),
 * whether a subgroup operation takes longs (shaderSubgroupExtendedTypes), the bounds its launches must keep
 * ({@code OpModuleProcessed "kiln.launchBound …"}, {@link LaunchBound}), the proofs that let a launch
 * leave checks out ({@code "kiln.launchProof …"}, {@link LaunchProof}), and how a launch may split
 * across devices ({@code "kiln.split …"}, {@link SplitForm}), and which buffers a launch may not
 * give one array ({@code "kiln.aliasConflict …"}, {@link AliasConflict}).
 */
public record KernelModule(byte[] code, Set<Integer> capabilities, boolean usesBarriers, long sharedBytes,
    int elementsPerInvocation, AtomicPlaces floatAdds, AtomicPlaces longUpdates, boolean subgroupLongs,
    List<LaunchBound> launchBounds, List<LaunchProof> launchProofs, SplitForm split, List<AliasConflict> aliasConflicts) {
  private static final String ELEMENTS_PER_INVOCATION = LaunchAbi.ELEMENTS_PER_INVOCATION;
  private static final int HEADER_WORDS = 5;

  /**
   * What launches read of a module besides its code: its bounds, its proofs, and its alias
   * conflicts as pairs of parameter indices, {@code {a0, b0, a1, b1, ...}}.
   */
  private record LaunchFacts(List<LaunchBound> bounds, List<LaunchProof> proofs, int[] conflicts) {}
  private static final Map<KernelSpec, LaunchFacts> LAUNCH_FACTS = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The launch bounds of {@code spec}'s module, read on its first launch; none for a spec without a
   * module (one the processor did not compile, which the CPU backend runs as Java methods).
   *
   * @param spec the kernel or group
   * @return its bounds
   */
  public static List<LaunchBound> boundsOf(KernelSpec spec) {
    return launchFacts(spec).bounds();
  }

  /**
   * The launch proofs of {@code spec}'s module ({@link LaunchProof}), read with its bounds; none for a
   * spec without a module.
   *
   * @param spec the kernel or group
   * @return its proofs
   */
  public static List<LaunchProof> proofsOf(KernelSpec spec) {
    return launchFacts(spec).proofs();
  }

  /**
   * The pairs of {@code spec}'s buffer parameters that may not be given one array, as parameter
   * indices {@code {a0, b0, a1, b1, ...}}: its module's {@link AliasConflict}s, read with its bounds;
   * for a spec without a module, every pair of one element type of which one is declared written.
   *
   * @param spec the kernel or group
   * @return the pairs, flattened
   */
  public static int[] aliasConflictsOf(KernelSpec spec) {
    return launchFacts(spec).conflicts();
  }

  private static LaunchFacts launchFacts(KernelSpec spec) {
    return LAUNCH_FACTS.computeIfAbsent(spec, kernel -> {
      try {
        KernelModule module = of(kernel);
        return new LaunchFacts(module.launchBounds(), module.launchProofs(), indices(kernel, module.aliasConflicts()));
      } catch (IllegalStateException noModule) {
        return new LaunchFacts(List.of(), List.of(), declaredConflicts(kernel));
      }
    });
  }

  private static int[] indices(KernelSpec spec, List<AliasConflict> conflicts) {
    List<String> names = spec.params().stream().map(KernelSpec.Param::name).toList();
    int[] pairs = new int[2 * conflicts.size()];
    for (int k = 0; k < conflicts.size(); k++) {
      pairs[2 * k] = names.indexOf(conflicts.get(k).first());
      pairs[2 * k + 1] = names.indexOf(conflicts.get(k).second());
      if (pairs[2 * k] < 0 || pairs[2 * k + 1] < 0) {
        throw new IllegalStateException("the module of " + spec + " names a parameter it does not have: " + conflicts.get(k));
      }
    }
    return pairs;
  }

  /** Without a module, what the declarations say: a pair of one element type, one of them not declared READ. */
  private static int[] declaredConflicts(KernelSpec spec) {
    List<KernelSpec.Param> params = spec.params();
    List<Integer> pairs = new ArrayList<>();
    for (int a = 0; a < params.size(); a++) {
      for (int b = a + 1; b < params.size(); b++) {
        KernelSpec.Param first = params.get(a);
        KernelSpec.Param second = params.get(b);
        if (first.isBuffer() && second.isBuffer() && first.type() == second.type()
            && (first.access() != Access.READ || second.access() != Access.READ)) {
          pairs.add(a);
          pairs.add(b);
        }
      }
    }
    return pairs.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * Whether the kernel uses subgroups (capability GroupNonUniform, which every subgroup operation
   * and built-in declares): on the CPU backend its invocations then run side by side.
   */
  public boolean usesSubgroups() {
    return capabilities.contains(SpvCapabilityGroupNonUniform);
  }

  /** Whether the kernel uses cooperative matrices, which a subgroup's lanes compute together. */
  public boolean usesMatrices() {
    return capabilities.contains(SpvCapabilityCooperativeMatrixKHR);
  }

  /** Loads and scans the module of {@code spec}. */
  public static KernelModule of(KernelSpec spec) {
    try (InputStream in = spec.openModule()) {
      if (in == null) {
        throw new IllegalStateException("SPIR-V module '" + spec.module() + "' of kernel " + spec
            + " is not among the resources beside " + spec.owner().getName()
            + "; was the class compiled with the Kiln processor on the processor path?");
      }
      return scan(in.readAllBytes());
    } catch (IOException e) {
      throw new IllegalStateException("cannot read SPIR-V module of kernel " + spec, e);
    }
  }

  static KernelModule scan(byte[] code) {
    ByteBuffer words = ByteBuffer.wrap(code).order(ByteOrder.LITTLE_ENDIAN);
    Set<Integer> capabilities = new HashSet<>();
    boolean barriers = false;
    Map<Integer, Long> bytesOfType = new HashMap<>(); // scalar and array types: their size
    Map<Integer, Long> constants = new HashMap<>();
    Map<Integer, Integer> workgroupPointees = new HashMap<>(); // pointer type -> pointee, Workgroup only
    long shared = 0;
    int elements = 1;
    boolean floatAddsOnBuffers = false;
    boolean floatAddsOnWorkgroup = false;
    Set<Integer> longTypes = new HashSet<>();
    boolean longsOnBuffers = false;
    boolean longsOnWorkgroup = false;
    boolean subgroupLongs = false;
    List<LaunchBound> bounds = new ArrayList<>();
    List<LaunchProof> proofs = new ArrayList<>();
    List<String> split = new ArrayList<>();
    List<AliasConflict> conflicts = new ArrayList<>();
    for (int at = HEADER_WORDS * 4; at + 4 <= code.length; ) {
      int first = words.getInt(at);
      int count = Math.max(1, first >>> 16);
      int start = at;
      IntUnaryOperator operand = k -> words.getInt(start + 4 * k);
      switch (first & 0xffff) {
        case SpvOpCapability -> capabilities.add(operand.applyAsInt(1));
        case SpvOpControlBarrier -> barriers = true;
        case SpvOpModuleProcessed -> {
          String text = literal(code, start + 4, count - 1);
          if (text.startsWith(ELEMENTS_PER_INVOCATION)) {
            elements = Integer.parseInt(text.substring(ELEMENTS_PER_INVOCATION.length()));
          } else if (text.startsWith(LaunchBound.PROCESSED)) {
            bounds.add(LaunchBound.decode(text.substring(LaunchBound.PROCESSED.length())));
          } else if (text.startsWith(LaunchProof.PROCESSED)) {
            proofs.add(LaunchProof.decode(text.substring(LaunchProof.PROCESSED.length())));
          } else if (text.startsWith(AliasConflict.PROCESSED)) {
            conflicts.add(AliasConflict.decode(text.substring(AliasConflict.PROCESSED.length())));
          } else if (text.startsWith(SplitForm.PROCESSED)) {
            split.add(text.substring(SplitForm.PROCESSED.length()));
          }
        }
        case SpvOpTypeInt, SpvOpTypeFloat -> {
          bytesOfType.put(operand.applyAsInt(1), operand.applyAsInt(2) / 8L);
          if ((first & 0xffff) == SpvOpTypeInt && operand.applyAsInt(2) == 64) {
            longTypes.add(operand.applyAsInt(1));
          }
        }
        case SpvOpConstant -> constants.put(operand.applyAsInt(2), Integer.toUnsignedLong(operand.applyAsInt(3)));
        case SpvOpTypeArray -> bytesOfType.put(operand.applyAsInt(1),
            bytesOfType.getOrDefault(operand.applyAsInt(2), 0L) * constants.getOrDefault(operand.applyAsInt(3), 0L));
        case SpvOpTypePointer -> {
          if (operand.applyAsInt(2) == SpvStorageClassWorkgroup) {
            workgroupPointees.put(operand.applyAsInt(1), operand.applyAsInt(3));
          }
        }
        case SpvOpVariable -> {
          if (count > 3 && operand.applyAsInt(3) == SpvStorageClassWorkgroup) {
            shared += bytesOfType.getOrDefault(workgroupPointees.getOrDefault(operand.applyAsInt(1), 0), 0L);
          }
        }
        case SpvOpAtomicFAddEXT -> { // a workgroup array's atomics have workgroup scope (the processor's MemoryAccess)
          boolean workgroup = constants.getOrDefault(operand.applyAsInt(4), -1L) == SpvScopeWorkgroup;
          floatAddsOnWorkgroup |= workgroup;
          floatAddsOnBuffers |= !workgroup;
        }
        case SpvOpAtomicIAdd, SpvOpAtomicSMin, SpvOpAtomicSMax, SpvOpAtomicAnd, SpvOpAtomicOr, SpvOpAtomicXor,
             SpvOpAtomicExchange, SpvOpAtomicCompareExchange -> {
          if (longTypes.contains(operand.applyAsInt(1))) {
            boolean workgroup = constants.getOrDefault(operand.applyAsInt(4), -1L) == SpvScopeWorkgroup;
            longsOnWorkgroup |= workgroup;
            longsOnBuffers |= !workgroup;
          }
        }
        default -> {
          int opcode = first & 0xffff;
          if (opcode >= SpvOpGroupNonUniformElect && opcode <= SpvOpGroupNonUniformQuadSwap && count > 1) {
            subgroupLongs |= longTypes.contains(operand.applyAsInt(1));
          }
        }
      }
      at += 4 * count;
    }
    return new KernelModule(code, Set.copyOf(capabilities), barriers, shared, elements,
        new AtomicPlaces(floatAddsOnBuffers, floatAddsOnWorkgroup), new AtomicPlaces(longsOnBuffers, longsOnWorkgroup),
        subgroupLongs, List.copyOf(bounds), List.copyOf(proofs), SplitForm.decode(split), List.copyOf(conflicts));
  }

  /** Whether the module makes atomics of one kind on buffer elements, and on workgroup array elements. */
  public record AtomicPlaces(boolean onBuffers, boolean onWorkgroupArrays) {}

  /**
   * This module without its requests to preserve subnormal values of the float widths (32, 64) not
   * in {@code preserved}, and without the DenormPreserve capability where none is left: for a device
   * whose driver cannot honour them (it may then flush subnormals to zero).
   */
  public KernelModule preservingDenormsOnly(Set<Integer> preserved) {
    ByteBuffer words = ByteBuffer.wrap(code).order(ByteOrder.LITTLE_ENDIAN);
    java.util.function.IntPredicate denormMode = at -> (words.getInt(at) & 0xffff) == SpvOpExecutionMode
        && words.getInt(at) >>> 16 == 4 && words.getInt(at + 8) == SpvExecutionModeDenormPreserve;
    boolean anyKept = false;
    for (int at = HEADER_WORDS * 4; at + 4 <= code.length; at += 4 * Math.max(1, words.getInt(at) >>> 16)) {
      anyKept |= denormMode.test(at) && preserved.contains(words.getInt(at + 12));
    }
    ByteBuffer kept = ByteBuffer.allocate(code.length).put(code, 0, HEADER_WORDS * 4);
    for (int at = HEADER_WORDS * 4; at + 4 <= code.length; at += 4 * Math.max(1, words.getInt(at) >>> 16)) {
      boolean dropped = denormMode.test(at) ? !preserved.contains(words.getInt(at + 12))
          : !anyKept && (words.getInt(at) & 0xffff) == SpvOpCapability && words.getInt(at + 4) == SpvCapabilityDenormPreserve;
      if (!dropped) {
        kept.put(code, at, 4 * Math.max(1, words.getInt(at) >>> 16));
      }
    }
    return kept.position() == code.length ? this : scan(java.util.Arrays.copyOf(kept.array(), kept.position()));
  }

  /** A SPIR-V literal string of {@code words} words at byte {@code at}: UTF-8, NUL-terminated. */
  private static String literal(byte[] code, int at, int words) {
    int end = at;
    while (end < at + 4 * words && code[end] != 0) {
      end++;
    }
    return new String(code, at, end - at, java.nio.charset.StandardCharsets.UTF_8);
  }
}
