package dev.kiln.library;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Which of the library's modules index a private array by a value their code computes at run time.
 * A driver keeps a private array in registers only where each index is a constant; one index it
 * cannot resolve sends the whole array to memory: the float32 GEMM's 64 sums did so, at 1.9 TFLOP/s
 * against 33.7 (PERFORMANCE.md, the forty-second session), until the processor unrolled the loops
 * around such indices. Every module but those listed (their loops reach the index through a local,
 * or have no constant count) indexes its private arrays by constants alone: each access chain into
 * a {@code Function} variable takes constants or integer arithmetic on constants.
 */
class PrivateIndicesTest {
  private static final int CONSTANT = 43;
  private static final int VARIABLE = 59;
  private static final int ACCESS_CHAIN = 65;
  private static final int FUNCTION_STORAGE = 7;

  /** Bitcast, integer arithmetic, shifts, or, and: what the writer makes of an index. */
  private static final Set<Integer> INDEX_ARITHMETIC =
      Set.of(124, 128, 130, 132, 134, 135, 137, 138, 139, 194, 195, 196, 197, 199);

  @Test
  void onlyTheListedModulesIndexPrivateArraysAtRunTime() throws Exception {
    Path classes =
        Path.of(GemmKernels.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .resolve("dev/kiln/library");
    List<Path> modules;
    try (Stream<Path> files = Files.list(classes)) {
      modules = files.filter(f -> f.toString().endsWith(".spv")).sorted().toList();
    }
    assertTrue(modules.size() > 40, "only " + modules.size() + " modules");
    Set<String> dynamic = new TreeSet<>();
    for (Path module : modules) {
      if (indexesAtRunTime(Files.readAllBytes(module))) {
        dynamic.add(module.getFileName().toString().replace(".spv", ""));
      }
    }
    assertEquals(
        Set.of(
            "RadixKernels.scatter",
            "ScanKernels.floatTiles",
            "ScanKernels.intTiles",
            "ScanKernels.longTiles",
            "TileGemmKernels.bfloats",
            "TileGemmKernels.bfloatsInOctets",
            "TileGemmKernels.bfloatsSlicesInOctets",
            "TileGemmKernels.halves",
            "TileGemmKernels.halvesInOctets",
            "TileGemmKernels.halvesSlicesInOctets"),
        dynamic);
  }

  /**
   * Whether an access chain of {@code module} into a {@code Function} variable has an index not
   * computed from constants alone.
   */
  private static boolean indexesAtRunTime(byte[] module) {
    IntBuffer words = ByteBuffer.wrap(module).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
    Set<Integer> constant = new HashSet<>();
    Set<Integer> function = new HashSet<>();
    for (int at = 5; at < words.limit(); ) {
      int word = words.get(at);
      int opcode = word & 0xffff;
      int count = word >>> 16;
      if (opcode == CONSTANT) {
        constant.add(words.get(at + 2));
      } else if (opcode == VARIABLE && words.get(at + 3) == FUNCTION_STORAGE) {
        function.add(words.get(at + 2));
      } else if (INDEX_ARITHMETIC.contains(opcode)) {
        boolean all = true;
        for (int operand = at + 3; operand < at + count; operand++) {
          all &= constant.contains(words.get(operand));
        }
        if (all) {
          constant.add(words.get(at + 2));
        }
      } else if (opcode == ACCESS_CHAIN && function.contains(words.get(at + 3))) {
        for (int index = at + 4; index < at + count; index++) {
          if (!constant.contains(words.get(index))) {
            return true;
          }
        }
      }
      at += count;
    }
    return false;
  }
}
