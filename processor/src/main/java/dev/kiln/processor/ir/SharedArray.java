package dev.kiln.processor.ir;

/**
 * Workgroup memory: an array that all invocations of a workgroup share, declared with
 * {@code Gpu.sharedFloats(length)} or {@code Gpu.sharedInts(length)} at the top of a kernel.
 */
public record SharedArray(String name, PrimType element, int length) implements ArrayDecl {}
