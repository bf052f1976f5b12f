package dev.kiln.processor.ir;

/**
 * An array of the invocation's own, from {@code new float[length]} or an array initializer in a
 * kernel. {@code name} is unique in the program.
 */
public record PrivateArray(String name, PrimType element, Expr length, Site site)
    implements FixedArray {}
