package dev.kiln.samples.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;

/** Random inputs and bit-for-bit comparisons of results. */
public final class Bits {
  private Bits() {}

  public static float[] randomFloats(Random random, int n, float bound) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextFloat(-bound, bound);
    }
    return values;
  }

  public static int[] randomInts(Random random, int n) {
    int[] values = new int[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextInt();
    }
    return values;
  }

  /** Fails naming the first element whose bits differ: -0.0 is not 0.0; NaNs are equal whatever their payload. */
  public static void assertSameBits(String what, Object expected, Object actual) {
    switch (expected) {
      case float[] e -> {
        float[] a = (float[]) actual;
        assertEquals(e.length, a.length, what + ": length");
        for (int i = 0; i < e.length; i++) {
          if (Float.floatToIntBits(e[i]) != Float.floatToIntBits(a[i])) {
            fail(what + ": element " + i + " of " + e.length + " is " + a[i] + " but Java gives " + e[i]);
          }
        }
      }
      case int[] e -> {
        int[] a = (int[]) actual;
        assertEquals(e.length, a.length, what + ": length");
        for (int i = 0; i < e.length; i++) {
          if (e[i] != a[i]) {
            fail(what + ": element " + i + " of " + e.length + " is " + a[i] + " but Java gives " + e[i]);
          }
        }
      }
      case long[] e -> {
        long[] a = (long[]) actual;
        assertEquals(e.length, a.length, what + ": length");
        for (int i = 0; i < e.length; i++) {
          if (e[i] != a[i]) {
            fail(what + ": element " + i + " of " + e.length + " is " + a[i] + " but Java gives " + e[i]);
          }
        }
      }
      case double[] e -> {
        double[] a = (double[]) actual;
        assertEquals(e.length, a.length, what + ": length");
        for (int i = 0; i < e.length; i++) {
          if (Double.doubleToLongBits(e[i]) != Double.doubleToLongBits(a[i])) {
            fail(what + ": element " + i + " of " + e.length + " is " + a[i] + " but Java gives " + e[i]);
          }
        }
      }
      case short[] e -> sameElements(what, e, actual);
      case byte[] e -> sameElements(what, e, actual);
      case char[] e -> sameElements(what, e, actual);
      case boolean[] e -> sameElements(what, e, actual);
      default -> throw new IllegalArgumentException(expected.getClass().getName());
    }
  }

  /** Element by element, for arrays of the narrow types, whose equal values have equal bits. */
  private static void sameElements(String what, Object expected, Object actual) {
    int length = java.lang.reflect.Array.getLength(expected);
    assertEquals(length, java.lang.reflect.Array.getLength(actual), what + ": length");
    for (int i = 0; i < length; i++) {
      Object e = java.lang.reflect.Array.get(expected, i);
      Object a = java.lang.reflect.Array.get(actual, i);
      if (!e.equals(a)) {
        fail(what + ": element " + i + " of " + length + " is " + a + " but Java gives " + e);
      }
    }
  }
}
