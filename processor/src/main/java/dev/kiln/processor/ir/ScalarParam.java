package dev.kiln.processor.ir;

/**
 * A scalar parameter, passed as a push constant. {@code member} is its index in the push-constant
 * block, whose members 0 to 3 are the launch's geometry: the grid's x size, the first
 * workgroup along x of the dispatch, and the grid's y and z sizes; {@code offset} is its byte offset
 * ({@link PushConstants}).
 */
public record ScalarParam(String name, PrimType type, int member, int offset) {}
