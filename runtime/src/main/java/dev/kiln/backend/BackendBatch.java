package dev.kiln.backend;

import dev.kiln.Grid;
import dev.kiln.KernelSpec;
import java.util.concurrent.CompletableFuture;

/**
 * Launches recorded to run together, in order, each seeing the writes of those before it. Calls
 * are serialized by {@code dev.kiln.Batch}.
 */
public interface BackendBatch extends AutoCloseable {
  /** Records a launch; {@code args} as for {@link Backend#dispatch}. */
  void record(KernelSpec spec, Grid[] grids, Object[] args);

  /** Starts the recorded launches; the future completes when they have, or with their fault. */
  CompletableFuture<Void> submit();

  /** Frees what the batch holds; the launches must have completed. */
  @Override
  void close();
}
