package dev.kiln.processor.ir;

/**
 * A scalar parameter, passed as a push constant at the place {@link PushConstantBlock} gives it.
 */
public record ScalarParam(String name, PrimType type) {}
