package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

/**
 * Java's float remainder ({@code fmod}): exact, with the dividend's sign. Vulkan's OpFRem is neither
 * (drivers compute {@code x - y * trunc(x / y)} in float). This is binary long division on the
 * magnitudes: with {@code k} the exponent difference, subtract {@code |y| * 2^k} whenever it fits and
 * halve it, down to {@code |y|}. Each subtraction is exact (Sterbenz: the subtrahend is at least half
 * the minuend), so the remainder is too.
 */
final class FloatRemainder {
  private FloatRemainder() {}

  static int emit(SpirvWriter w, int x, int y) {
    SpirvModule m = w.module();
    int f32 = m.typeFloat();
    int i32 = m.typeInt();
    int bool = m.typeBool();
    int ax = w.glsl(Glsl.FABS, f32, x);
    int ay = w.glsl(Glsl.FABS, f32, y);

    // The long division runs for finite x and 0 < |y| <= |x|; NaN comparisons are false.
    int divides = w.op(SpvOpLogicalAnd, bool,
        w.op(SpvOpLogicalAnd, bool, w.op(SpvOpFOrdGreaterThan, bool, ay, m.constantFloat(0f)),
            w.op(SpvOpFOrdGreaterThanEqual, bool, ax, ay)),
        w.op(SpvOpLogicalNot, bool, w.op(SpvOpIsInf, bool, ax)));
    int remainder = w.temporary(f32);
    int shift = w.temporary(i32);
    w.store(remainder, ax);
    w.when(divides, () -> {
      w.store(shift, w.op(SpvOpISub, i32, exponent(w, ax), exponent(w, ay)));
      SpirvWriter.LoopBlocks loop = w.openLoop();
      int k = w.load(i32, shift);
      loop.bodyIf(w, w.op(SpvOpSGreaterThanEqual, bool, k, m.constantInt(0)));
      int scaled = w.glsl(Glsl.LDEXP, f32, ay, k);
      int r = w.load(f32, remainder);
      int fits = w.op(SpvOpFOrdGreaterThanEqual, bool, r, scaled);
      w.store(remainder, w.op(SpvOpSelect, f32, fits, Operators.exact(w, SpvOpFSub, r, scaled), r));
      w.store(shift, w.op(SpvOpISub, i32, k, m.constantInt(1)));
      w.closeLoop(loop);
    });

    // |result| with the dividend's sign bit, so -5f % 5f is -0f as in Java.
    int magnitude = w.op(SpvOpBitcast, i32, w.load(f32, remainder));
    int sign = w.op(SpvOpBitwiseAnd, i32, w.op(SpvOpBitcast, i32, x), m.constantInt(Integer.MIN_VALUE));
    int signed = w.op(SpvOpBitcast, f32, w.op(SpvOpBitwiseOr, i32, magnitude, sign));
    // NaN when x is infinite or NaN, or y is zero or NaN; x itself when |x| < |y| (y infinite too).
    int undefined = w.op(SpvOpLogicalOr, bool,
        w.op(SpvOpLogicalOr, bool, w.op(SpvOpIsNan, bool, x), w.op(SpvOpIsNan, bool, y)),
        w.op(SpvOpLogicalOr, bool, w.op(SpvOpIsInf, bool, x), w.op(SpvOpFOrdEqual, bool, y, m.constantFloat(0f))));
    int result = w.op(SpvOpSelect, f32, divides, signed, x);
    return w.op(SpvOpSelect, f32, undefined, m.constantFloat(Float.NaN), result);
  }

  /** The exponent e of {@code value = m * 2^e} with {@code 0.5 <= m < 1}. */
  private static int exponent(SpirvWriter w, int value) {
    SpirvModule m = w.module();
    int struct = m.type(SpvOpTypeStruct, m.typeFloat(), m.typeInt());
    return w.op(SpvOpCompositeExtract, m.typeInt(), w.glsl(Glsl.FREXP_STRUCT, struct, value), 1);
  }
}
