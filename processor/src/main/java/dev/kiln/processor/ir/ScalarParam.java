package dev.kiln.processor.ir;

/**
 * A scalar parameter, passed as a push constant. {@code member} is its index in the push-constant
 * block, whose members 0 and 1 are the invocation count and the first workgroup of the
 * dispatch.
 */
public record ScalarParam(String name, PrimType type, int member) {}
