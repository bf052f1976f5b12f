package dev.kiln.processor.spirv;

/**
 * Instruction numbers of the GLSL.std.450 extended instruction set (its specification, section 2).
 */
final class Glsl {
  static final int SIN = 13;
  static final int COS = 14;
  static final int TAN = 15;
  static final int TANH = 21;
  static final int ATAN2 = 25;
  static final int POW = 26;
  static final int EXP = 27;
  static final int LOG = 28;
  static final int EXP2 = 29;
  static final int LOG2 = 30;
  static final int SQRT = 31;
  static final int INVERSE_SQRT = 32;
  static final int SMIN = 39;
  static final int SMAX = 42;
  static final int FMA = 50;
  static final int FREXP_STRUCT = 52;
  static final int UNPACK_HALF_2X16 = 62;
  static final int FIND_ILSB = 73;
  static final int FIND_UMSB = 75;

  private Glsl() {}
}
