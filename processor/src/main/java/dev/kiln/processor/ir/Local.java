package dev.kiln.processor.ir;

/** A local variable; {@code id} is unique within its program, so equal names never clash. */
public record Local(String name, PrimType type, int id) {}
