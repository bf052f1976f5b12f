package dev.kiln;

import dev.kiln.backend.BackendBatch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Many launches recorded together and submitted once: on Vulkan one command buffer, with a pipeline
 * barrier only where a launch uses a buffer an earlier one wrote (or writes one it read). Launches
 * run in order and see each other's writes. Generated launchers take a batch where they take a
 * device, for device arrays:
 *
 * <pre>{@code
 * try (Batch batch = device.batch()) {
 *   for (int step = 0; step < 1000; step++) {
 *     PipelineKernels.scale(batch, n, data, 1.01f);
 *   }
 * } // submits and waits; or batch.submitAsync() for a CompletableFuture
 * }</pre>
 *
 * The arrays a batch uses must stay open, and unchanged by the host, until it completes.
 */
public final class Batch implements AutoCloseable {
  private final Device device;
  private final BackendBatch backend;
  private CompletableFuture<Void> completion;
  private boolean closed;

  Batch(Device device, BackendBatch backend) {
    this.device = device;
    this.backend = backend;
  }

  /** Records a launch of {@code count} invocations along x (every arm of a group as many). Called by generated launchers. */
  public void dispatch(KernelSpec spec, int count, Object... args) {
    record(spec, Launches.same(spec, Launches.line(spec, count)), args);
  }

  /** Records a launch over {@code grid} (every arm of a group over it). Called by generated launchers. */
  public void dispatch(KernelSpec spec, Grid grid, Object... args) {
    record(spec, Launches.same(spec, grid), args);
  }

  /** Records a launch of the group {@code spec} with arm k over {@code counts[k]} invocations along x. */
  public void dispatch(KernelSpec spec, int[] counts, Object... args) {
    record(spec, Launches.lines(spec, counts), args);
  }

  /** Records a launch of the group {@code spec} with arm k over {@code grids[k]}. */
  public void dispatch(KernelSpec spec, Grid[] grids, Object... args) {
    record(spec, Launches.check(spec, grids), args);
  }

  /** Records {@code spec} over {@code grids}, one valid grid per arm that no caller can change. */
  private void record(KernelSpec spec, Grid[] checked, Object[] args) {
    synchronized (this) {
      if (completion != null || closed) {
        throw new IllegalStateException("this batch has been submitted; record into a new one");
      }
      device.whileOpen(() -> {
        Object[] backendArgs = device.backendArguments(spec, args);
        if (!KernelSpec.dispatchGrid(checked).isEmpty()) {
          backend.record(spec, checked, backendArgs);
        }
        return null;
      });
    }
  }

  /** Submits the recorded launches; the future completes when they have run (or failed). */
  public CompletableFuture<Void> submitAsync() {
    synchronized (this) {
      if (completion == null) {
        completion = device.whileOpen(backend::submit);
      }
      return completion;
    }
  }

  /** Submits the recorded launches and waits for them; throws what a launch threw. */
  public void submit() {
    try {
      submitAsync().join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }

  /** Submits if that has not happened, waits, and frees the batch. Closing twice is harmless. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    try {
      submit();
    } finally {
      closed = true;
      synchronized (this) {
        device.whileOpen(() -> {
          backend.close();
          return null;
        });
      }
    }
  }
}
