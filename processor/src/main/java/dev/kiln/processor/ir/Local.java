package dev.kiln.processor.ir;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local variable. Every local comes from {@link #fresh}, one allocator for all programs, so two
 * locals are equal only if they are the same variable: bodies can be merged without capture.
 */
public record Local(String name, PrimType type, int id) {
  private static final AtomicInteger IDS = new AtomicInteger();

  /** A new local, distinct from every other. */
  public static Local fresh(String name, PrimType type) {
    return new Local(name, type, IDS.getAndIncrement());
  }
}
