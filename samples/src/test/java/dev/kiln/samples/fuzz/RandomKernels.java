package dev.kiln.samples.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Csmith-style random kernels, as Java source: locals, compound assignments, nested {@code if},
 * bounded {@code for} and {@code while} loops with {@code break} and {@code continue}, switches with
 * fall-through, an invocation's own arrays, reads of input buffers anywhere and writes of outputs at
 * the invocation's own index (plain, or read, modified and written again, in loops too), over int
 * and float expressions. Every kernel is valid, terminates and
 * is deterministic (no invocation reads what another writes), so its Java method is its oracle.
 * {@link #odd} makes a kernel with one construct the language may reject, for crash checks.
 *
 * <p>Every kernel has the parameters {@link #PARAMETERS}; inputs are never empty. No literal is
 * zero, which keeps clear of lavapipe's constant-zero miscompiles (docs/DRIVER-GAPS.md).
 */
final class RandomKernels {
  static final String PARAMETERS = "int[] ia, float[] fa, int[] io, float[] fo, int s, float t";

  private final Random random;
  private final List<String> ints = new ArrayList<>();
  private final List<String> floats = new ArrayList<>();
  /** Loop counters: read, never written. */
  private final List<String> counters = new ArrayList<>();
  /** An invocation's own arrays: name and length (a power of two), int ones then float ones. */
  private final List<String[]> intArrays = new ArrayList<>();
  private final List<String[]> floatArrays = new ArrayList<>();
  private int names;
  private int loopDepth;
  private StringBuilder out;
  private int indent;

  RandomKernels(Random random) {
    this.random = random;
  }

  /** A valid kernel named {@code name}. */
  String kernel(String name) {
    return kernel(name, null, false);
  }

  /**
   * A valid kernel named {@code name} whose invocations may fault: one of them (if the launch has
   * it) divides by zero, and those from another on store past {@code io}'s end, in either order
   * at a random statement. Java throws the lowest faulting invocation's first fault; so must every
   * device.
   */
  String faulting(String name) {
    String divide = "if (i == " + random.nextInt(1000) + ") { $I = $I / (i - i); }";
    String store = "if (i >= " + random.nextInt(1000) + ") { io[i + io.length] = $I; }";
    return kernel(name, random.nextBoolean() ? divide + " " + store : store + " " + divide, false);
  }

  /**
   * A kernel named {@code name} with one construct from {@link #ODD} at a random statement: valid
   * or not, compiling it must never crash Kiln, and whatever Kiln accepts must be right.
   */
  String odd(String name) {
    return kernel(name, ODD.get(random.nextInt(ODD.size())), true);
  }

  private String kernel(String name, String oddStatement, boolean mayBeUnchecked) {
    ints.clear();
    floats.clear();
    counters.clear();
    intArrays.clear();
    floatArrays.clear();
    names = 0;
    loopDepth = 0;
    out = new StringBuilder();
    indent = 1;
    // odd kernels run unchecked at times, where a constant index out of bounds once made an invalid module
    line(mayBeUnchecked && random.nextInt(4) == 0 ? "@Kernel(boundsChecks = false)" : "@Kernel");
    line("static void " + name + "(" + PARAMETERS + ") {");
    indent++;
    line("int i = Gpu.globalId(0);");
    line("if (i < io.length && i < fo.length) {");
    indent++;
    declareInt("ia[i % ia.length]");
    declareFloat("fa[i % fa.length]");
    int statements = 2 + random.nextInt(6);
    int oddAt = oddStatement == null ? -1 : random.nextInt(statements);
    for (int k = 0; k < statements; k++) {
      if (k == oddAt) {
        line(oddStatement.replace("$I", anyInt()).replace("$F", anyFloat()));
      }
      statement(3);
    }
    line("io[i] = " + intExpression(3) + ";");
    line("fo[i] = " + floatExpression(3) + ";");
    indent--;
    line("}");
    indent--;
    line("}");
    return out.toString();
  }

  /** Statements the language may reject or that exercise its edges; $I and $F stand for an int and a float local. */
  static final List<String> ODD = List.of(
      "String label = \"k\" + $I;",
      "Object boxed = $I;",
      "long wide = $I * 3L; $I = (int) (wide >> 1);",
      "double precise = $F * 2.0; $F = (float) precise;",
      "$I = $I++ + ++$I;",
      "$I = ($I = 3) + $I;",
      "for (int each : ia) { $I += each; break; }",
      "$I = switch ($I & 3) { case 0 -> 1; case 1, 2 -> 2; default -> 3; };",
      "$I = switch ($I & 3) { case 0 -> 1; case 1 -> 2; };", // not exhaustive: javac's error alone
      "yield $I;", // outside a switch expression: javac's error alone
      "$I = Math.abs($I, 1);", // no such method: javac's error alone
      "$I = $I" + " + 1".repeat(300) + ";", // a long sum: the processor was quadratic in its length
      "byte small = (byte) $I; $I = small;",
      "char letter = (char) $I; $I += letter;",
      "short half = (short) $I; half += 1; $I = half;",
      "final int taps = 4; int[] window = new int[taps]; window[$I & 3] = 1; $I = window[1];",
      "$I = Math.floorDiv($I, 7);",
      "$I = Math.abs($I) + Integer.bitCount($I);",
      "$F = Math.copySign($F, -1f);",
      "$I = Float.floatToRawIntBits($F);",
      "$F = Float.intBitsToFloat($I);",
      "synchronized (ia) { $I++; }",
      "try { $I /= 2; } catch (ArithmeticException e) { $I = 0; }",
      "Runnable later = () -> {};",
      "int[] copy = ia.clone();",
      "int[] local = ia; $I = local[0];",
      "$I = ia[$I];",
      "io[0] = $I;",
      "$F = new float[] {1f, 2f}[$I & 1];",
      "label: { if ($I > 0) break label; $I = 1; }",
      "do { $I--; } while ($I > 100);",
      "$I = $I > 0 ? Math.max($I, 5) : Math.min($I, -5);",
      // switch expressions whose cases run statements, inside larger expressions (issue 27)
      "$I = 1 + switch ($I & 3) { case 0 -> { int t = $I * 3; yield t ^ 5; }"
          + " default -> { int u = 0; for (int q = 0; q < ($I & 7); q++) { if (u > 9) { break; } u += q; } yield u; } };",
      "$F = $I > 0 ? $F * switch ($I & 1) { case 0 -> { float h = $F / 2f; yield h; } default -> 1f; } : -$F;",
      "outer: for (int r = 0; r < 3; r++) { $I += switch (r) { case 1 -> { int w = 0;"
          + " for (int q = 0; q < 4; q++) { if (q == $I) { break; } w++; } yield w; } default -> r; }; if ($I > 50) { break outer; } }",
      "assert $I > 0;",
      "throw new IllegalStateException();",
      "return;",
      "Gpu.barrier();",
      "int[] shared = Gpu.sharedInts(8);",
      "$I = Gpu.atomicAdd(io, 0, 1);",
      "$I = Gpu.subgroupAdd($I);",
      "$F = (float) Math.sqrt($F);",
      "$F = Math.fma($F, $F, 1f);",
      "$I = (int) Math.pow(2, 3);",
      "var inferred = $I; $I = inferred;",
      "int[][] grid = new int[2][2];",
      // constant indices out of bounds in every launch: once invalid modules (issue 45)
      "fo[-1] = $F;",
      "$I = Gpu.atomicAdd(io, -1, 1);",
      "int[] pair = new int[2]; pair[2] = $I; $I = pair[1];",
      "$F += fa[-2];");

  private void statement(int depth) {
    int choice = random.nextInt(depth <= 0 ? 4 : 11);
    switch (choice) {
      case 0 -> {
        if (random.nextBoolean()) {
          declareInt(intExpression(2));
        } else {
          declareFloat(floatExpression(2));
        }
      }
      case 1, 2 -> assignment();
      case 3 -> output();
      case 4, 5 -> {
        line("if (" + condition(2) + ") {");
        block(depth - 1);
        if (random.nextBoolean()) {
          line("} else {");
          block(depth - 1);
        }
        line("}");
      }
      case 6 -> {
        String j = "j" + names++;
        line("for (int " + j + " = 0; " + j + " < " + (1 + random.nextInt(6)) + "; " + j + "++) {");
        loopBody(j, depth);
        line("}");
      }
      case 7 -> {
        String c = "c" + names++;
        line("int " + c + " = " + (1 + random.nextInt(5)) + ";");
        line("while (" + c + " > 0) {");
        indent++;
        line(c + "--;");
        indent--;
        loopBody(c, depth);
        line("}");
      }
      case 8 -> ownArray();
      case 9 -> {
        line("switch (" + intExpression(2) + " & 3) {");
        for (int k = 0; k < 4; k++) {
          line(k < 3 ? "case " + k + ":" : "default:");
          block(depth - 1);
          if (random.nextInt(3) > 0) {
            indent++;
            line("break;");
            indent--;
          }
        }
        line("}");
      }
      default -> {
        if (loopDepth > 0) {
          line("if (" + condition(1) + ") {");
          indent++;
          line(random.nextBoolean() ? "break;" : "continue;");
          indent--;
          line("}");
        } else {
          assignment();
        }
      }
    }
  }

  private void loopBody(String counter, int depth) {
    counters.add(counter);
    loopDepth++;
    block(depth - 1);
    loopDepth--;
    counters.remove(counter);
  }

  /** Statements in a scope of their own: what they declare goes out of scope after them. */
  private void block(int depth) {
    int intsBefore = ints.size();
    int floatsBefore = floats.size();
    int intArraysBefore = intArrays.size();
    int floatArraysBefore = floatArrays.size();
    indent++;
    int statements = 1 + random.nextInt(3);
    for (int k = 0; k < statements; k++) {
      statement(depth);
    }
    indent--;
    ints.subList(intsBefore, ints.size()).clear();
    floats.subList(floatsBefore, floats.size()).clear();
    intArrays.subList(intArraysBefore, intArrays.size()).clear();
    floatArrays.subList(floatArraysBefore, floatArrays.size()).clear();
  }

  private void assignment() {
    if (random.nextBoolean()) {
      String target = pick(ints);
      String[] ops = {"=", "+=", "-=", "*=", "^=", "|=", "&=", "<<=", ">>=", ">>>="};
      String op = ops[random.nextInt(ops.length)];
      if (random.nextInt(8) == 0) {
        line(target + (random.nextBoolean() ? "++;" : "--;"));
      } else {
        line(target + " " + op + " " + intExpression(2) + ";");
      }
    } else {
      String target = pick(floats);
      String[] ops = {"=", "+=", "-=", "*=", "/="};
      line(target + " " + ops[random.nextInt(ops.length)] + " " + floatExpression(2) + ";");
    }
    if (!intArrays.isEmpty() && random.nextInt(3) == 0) {
      String[] array = intArrays.get(random.nextInt(intArrays.size()));
      line(array[0] + "[" + maskedIndex(array) + "] = " + intExpression(2) + ";");
    }
    if (!floatArrays.isEmpty() && random.nextInt(3) == 0) {
      String[] array = floatArrays.get(random.nextInt(floatArrays.size()));
      line(array[0] + "[" + maskedIndex(array) + "] = " + floatExpression(2) + ";");
    }
  }

  /**
   * A write of an output at the invocation's own index, which no other invocation touches: a plain
   * store, or a read-modify-write of the element (compound assignment, {@code ++}, {@code --}), which
   * in a loop updates one buffer element many times per invocation.
   */
  private void output() {
    boolean ints = random.nextBoolean();
    String target = ints ? "io[i]" : "fo[i]";
    switch (random.nextInt(4)) {
      case 0 -> line(target + " = " + (ints ? intExpression(2) : floatExpression(2)) + ";");
      case 1 -> line(target + (random.nextBoolean() ? "++;" : "--;"));
      default -> {
        String[] ops = ints ? new String[] {"+=", "-=", "*=", "^=", "|="} : new String[] {"+=", "-=", "*="};
        line(target + " " + ops[random.nextInt(ops.length)] + " " + (ints ? intExpression(2) : floatExpression(2)) + ";");
      }
    }
  }

  private void ownArray() {
    int length = 1 << random.nextInt(5);
    String name = "p" + names++;
    if (random.nextBoolean()) {
      line("int[] " + name + " = new int[" + length + "];");
      intArrays.add(new String[] {name, Integer.toString(length)});
    } else {
      line("float[] " + name + " = new float[" + length + "];");
      floatArrays.add(new String[] {name, Integer.toString(length)});
    }
  }

  private String maskedIndex(String[] array) {
    return "(" + intExpression(1) + ") & " + (Integer.parseInt(array[1]) - 1);
  }

  private void declareInt(String value) {
    String name = "v" + names++;
    line("int " + name + " = " + value + ";");
    ints.add(name);
  }

  private void declareFloat(String value) {
    String name = "w" + names++;
    line("float " + name + " = " + value + ";");
    floats.add(name);
  }

  private String anyInt() {
    return ints.getFirst();
  }

  private String anyFloat() {
    return floats.getFirst();
  }

  String intExpression(int depth) {
    if (depth <= 0 || random.nextInt(4) == 0) {
      return switch (random.nextInt(8)) {
        case 0, 1 -> pick(ints);
        case 2 -> counters.isEmpty() ? "s" : pick(counters);
        case 3 -> "i";
        case 4 -> "s";
        case 5 -> intArrays.isEmpty() ? pick(ints) : readOwn(intArrays);
        case 6 -> random.nextBoolean() ? "ia[(" + pick(ints) + " & 0x7fffffff) % ia.length]" : "io[i]";
        default -> {
          int value = random.nextInt(2001) - 1000;
          yield value == 0 ? "Integer.MIN_VALUE" : "(" + value + ")";
        }
      };
    }
    String l = intExpression(depth - 1);
    String r = intExpression(depth - 1);
    return switch (random.nextInt(19)) {
      case 0, 1 -> "(" + l + " + " + r + ")";
      case 2 -> "(" + l + " - " + r + ")";
      case 3 -> "(" + l + " * " + r + ")";
      case 4 -> "(" + l + " / (" + r + " | 1))";
      case 5 -> "(" + l + " % (" + r + " | 1))";
      case 6 -> "(" + l + " << " + r + ")";
      case 7 -> "(" + l + " >> " + r + ")";
      case 8 -> "(" + l + " >>> " + r + ")";
      case 9 -> "(" + l + " & " + r + " | " + l + " ^ " + r + ")";
      case 10 -> "(-(" + l + "))";
      case 11 -> "(~(" + l + "))";
      case 12 -> "(" + condition(depth - 1) + " ? " + l + " : " + r + ")";
      case 13 -> "(int) " + floatExpression(depth - 1);
      case 14 -> "Math.max(" + l + ", " + r + ")";
      case 15 -> "Math.floorMod(" + l + ", " + r + " | 1)";
      case 16 -> "Math.round(" + floatExpression(depth - 1) + ")";
      case 17 -> intHelper(l, r);
      default -> "Integer.rotateLeft(" + l + ", " + r + ")";
    };
  }

  /** A call of one of the int helpers of another class ({@code fuzz/FuzzHelpers.java}). */
  private String intHelper(String l, String r) {
    return switch (random.nextInt(4)) {
      case 0 -> "FuzzHelpers.mix(" + l + ", " + r + ")";
      case 1 -> "FuzzHelpers.clampIndex(" + l + ", " + r + " | 1)";
      case 2 -> "FuzzHelpers.digits(" + l + ")";
      default -> intArrays.isEmpty() ? "FuzzHelpers.mix(" + r + ", " + l + ")"
          : "FuzzHelpers.sumOwn(" + intArrays.get(random.nextInt(intArrays.size()))[0] + ")";
    };
  }

  /** A call of one of the float helpers of another class. */
  private String floatHelper(String l, String r, int depth) {
    return switch (random.nextInt(3)) {
      case 0 -> "FuzzHelpers.blend(" + l + ", " + r + ", " + intExpression(depth - 1) + ")";
      case 1 -> "FuzzHelpers.poly(" + l + ")";
      default -> floatArrays.isEmpty() ? "FuzzHelpers.poly(" + r + ")"
          : "FuzzHelpers.sumOwnF(" + floatArrays.get(random.nextInt(floatArrays.size()))[0] + ")";
    };
  }

  String floatExpression(int depth) {
    if (depth <= 0 || random.nextInt(4) == 0) {
      return switch (random.nextInt(6)) {
        case 0, 1 -> pick(floats);
        case 2 -> "t";
        case 3 -> floatArrays.isEmpty() ? pick(floats) : readOwn(floatArrays);
        case 4 -> random.nextBoolean() ? "fa[(" + pick(ints) + " & 0x7fffffff) % fa.length]" : "fo[i]";
        default -> {
          float value = random.nextInt(1, 400) / 8f * (random.nextBoolean() ? 1 : -1);
          yield "(" + value + "f)";
        }
      };
    }
    String l = floatExpression(depth - 1);
    String r = floatExpression(depth - 1);
    return switch (random.nextInt(12)) {
      case 0, 1 -> "(" + l + " + " + r + ")";
      case 2 -> "(" + l + " - " + r + ")";
      case 3 -> "(" + l + " * " + r + ")";
      case 4 -> "(" + l + " / " + r + ")";
      case 5 -> "(" + l + " % " + r + ")";
      case 6 -> "(" + condition(depth - 1) + " ? " + l + " : " + r + ")";
      case 7 -> "Math.min(" + l + ", " + r + ")";
      case 8 -> "Math.abs(" + l + ")";
      case 9 -> "Gpu.floor(" + l + ")";
      case 10 -> floatHelper(l, r, depth);
      default -> "(float) " + intExpression(depth - 1);
    };
  }

  String condition(int depth) {
    return switch (random.nextInt(6)) {
      case 0 -> "(" + intExpression(depth) + " < " + intExpression(depth) + ")";
      case 1 -> "(" + floatExpression(depth) + " <= " + floatExpression(depth) + ")";
      case 2 -> "(" + floatExpression(depth) + " != " + floatExpression(depth) + ")";
      case 3 -> "(" + intExpression(depth) + " == " + intExpression(depth) + " || " + pick(ints) + " > s)";
      case 4 -> "(" + pick(floats) + " < t && " + intExpression(depth) + " >= i)";
      default -> "!(" + floatExpression(depth) + " > " + pick(floats) + ")";
    };
  }

  private String readOwn(List<String[]> arrays) {
    String[] array = arrays.get(random.nextInt(arrays.size()));
    return array[0] + "[" + maskedIndex(array) + "]";
  }

  private String pick(List<String> names) {
    return names.get(random.nextInt(names.size()));
  }

  private void line(String text) {
    out.append("  ".repeat(indent)).append(text).append('\n');
  }
}
