package dev.kiln.samples.fuzz;

import java.util.Random;

/**
 * Random int and float expressions over the kernel language's operators, as Java source. Every
 * division has a divisor that cannot be zero, so Java and the GPU both give a value.
 */
final class RandomExpressions {
  private final Random random;

  RandomExpressions(Random random) {
    this.random = random;
  }

  /** An int expression over {@code a} and {@code b} (ints) and {@code x} and {@code y} (floats). */
  String intExpression(int depth) {
    if (depth == 0 || random.nextInt(5) == 0) {
      return switch (random.nextInt(4)) {
        case 0 -> "a";
        case 1 -> "b";
        case 2 -> "(" + (random.nextInt(2000) - 1000) + ")";
        default -> random.nextBoolean() ? "Integer.MIN_VALUE" : "Integer.MAX_VALUE";
      };
    }
    String l = intExpression(depth - 1);
    String r = intExpression(depth - 1);
    return switch (random.nextInt(17)) {
      case 0 -> "(" + l + " + " + r + ")";
      case 1 -> "(" + l + " - " + r + ")";
      case 2 -> "(" + l + " * " + r + ")";
      case 3 -> "(" + l + " / (" + r + " | 1))";
      case 4 -> "(" + l + " % (" + r + " | 1))";
      case 5 -> "(" + l + " << " + r + ")";
      case 6 -> "(" + l + " >> " + r + ")";
      case 7 -> "(" + l + " >>> " + r + ")";
      case 8 -> "(" + l + " & " + r + " | " + l + " ^ " + r + ")";
      case 9 -> "(-(" + l + "))";
      case 10 -> "(~(" + l + "))";
      case 11 -> "(" + condition(depth - 1) + " ? " + l + " : " + r + ")";
      case 12 -> "(int) " + floatExpression(depth - 1);
      case 13 -> "Math.max(" + l + ", " + r + ")";
      case 14 -> "Math.floorMod(" + l + ", " + r + " | 1)";
      case 15 -> "Math.round(" + floatExpression(depth - 1) + ")";
      default -> "Integer.rotateLeft(" + l + ", " + r + ")";
    };
  }

  String floatExpression(int depth) {
    if (depth == 0 || random.nextInt(5) == 0) {
      return switch (random.nextInt(4)) {
        case 0 -> "x";
        case 1 -> "y";
        case 2 -> "(" + random.nextFloat(-100f, 100f) + "f)";
        default -> "(float) a";
      };
    }
    String l = floatExpression(depth - 1);
    String r = floatExpression(depth - 1);
    return switch (random.nextInt(11)) {
      case 0 -> "(" + l + " + " + r + ")";
      case 1 -> "(" + l + " - " + r + ")";
      case 2 -> "(" + l + " * " + r + ")";
      case 3 -> "(" + l + " / " + r + ")";
      case 4 -> "(" + l + " % " + r + ")";
      case 5 -> "(-(" + l + "))";
      case 6 -> "(" + condition(depth - 1) + " ? " + l + " : " + r + ")";
      case 7 -> "Math.min(" + l + ", " + r + ")";
      case 8 -> "Math.abs(" + l + ")";
      case 9 -> "Gpu.floor(" + l + ")";
      default -> "(float) " + intExpression(depth - 1);
    };
  }

  String condition(int depth) {
    return switch (random.nextInt(6)) {
      case 0 -> "(" + intExpression(depth) + " < " + intExpression(depth) + ")";
      case 1 -> "(" + floatExpression(depth) + " <= " + floatExpression(depth) + ")";
      case 2 -> "(" + floatExpression(depth) + " != " + floatExpression(depth) + ")";
      case 3 -> "(" + intExpression(depth) + " == " + intExpression(depth) + " || a > b)";
      case 4 -> "(x < y && " + intExpression(depth) + " >= 0)";
      default -> "!(" + floatExpression(depth) + " > 0f)";
    };
  }
}
