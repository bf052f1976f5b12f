package dev.kiln.processor.ir;

/**
 * Where a node came from: its source line (for fault reports and messages) and an id that the
 * compiler maps back to the source tree, so that a pass can report on the exact expression.
 */
public record Site(int line, int id) {}
