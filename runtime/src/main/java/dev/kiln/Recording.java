package dev.kiln;

import dev.kiln.backend.BackendBatch;
import java.util.concurrent.CompletableFuture;

/**
 * Launches recorded once and run again as often as asked, like a CUDA graph: on Vulkan one command
 * buffer submitted again as it is, so a run costs one submission and one wait on the host, however
 * many launches it holds. {@link Device#record} makes one. Its launches' scalars are fixed when
 * they are recorded; what changes between runs lives in device arrays the host writes before a run
 * (a position, a token):
 *
 * <pre>{@code
 * try (IntArray position = device.ints(1);
 *     Recording step = device.record(batch -> Decoder.step(batch, position, cache, logits))) {
 *   for (int p = 0; p < 64; p++) {
 *     position.upload(new int[] {p});
 *     step.replay(); // runs the launches, in order, each seeing the writes of those before it
 *   }
 * }
 * }</pre>
 *
 * A run sees the writes of the runs before it and of the host before it started. A fault throws
 * Java's exception, the first faulting launch's, as a {@link Batch} does; the recording can run
 * again afterwards. Runs never overlap: a run waits for the one before it. The arrays the launches
 * use stay allocated until the recording closes; a run after one of them was closed is refused,
 * naming it.
 */
public final class Recording implements AutoCloseable {
  private final Device device;
  private final Batch batch;

  /** The run {@link #replayAsync()} started, until a later call waited for it; or null. */
  private CompletableFuture<Void> running;

  private boolean closed;

  Recording(Device device, BackendBatch backend) {
    this.device = device;
    this.batch = new Batch(device, backend, true);
  }

  /** The batch the launches are recorded into. */
  Batch batch() {
    return batch;
  }

  /**
   * Runs the recorded launches and waits for them on the calling thread; throws what the first
   * faulting launch would have thrown in Java.
   */
  public synchronized void replay() {
    replay(1);
  }

  /**
   * Runs the recorded launches {@code runs} times back to back, each run seeing the writes of the
   * one before, and waits for them on the calling thread: one submission and one wait for all (on
   * Vulkan the command buffer is submitted {@code runs} times at once), so the device does not idle
   * between runs while the host turns around, as it does between {@link #replay()}s. A fault throws
   * the first faulting launch's exception of the first run that faulted; on Vulkan the runs after
   * it still run (their faults not reported), on the CPU backend they do not. {@link
   * #deviceNanos()} is then the last run's.
   *
   * @param runs how many times, at least 1
   * @throws IllegalArgumentException where {@code runs} is less than 1
   */
  public synchronized void replay(int runs) {
    if (runs < 1) {
      throw new IllegalArgumentException(runs + " runs: a recording runs at least once");
    }
    start(runs);
    device.await(batch.backend());
  }

  /**
   * Runs the recorded launches once the run before has completed; the future completes when they
   * have run, or with the exception the first faulting launch threw.
   *
   * @return a future that completes when this run has completed
   */
  public synchronized CompletableFuture<Void> replayAsync() {
    start(1);
    running = device.awaitAsync(batch.backend());
    return running;
  }

  /**
   * Waits for an asynchronous run still going (its future reports its outcome), then starts {@code
   * runs}.
   */
  private void start(int runs) {
    if (closed) {
      throw new IllegalStateException("this recording is closed");
    }
    finishRunning();
    batch.replay(runs);
  }

  private void finishRunning() {
    if (running != null) {
      running.exceptionally(failure -> null).join();
      running = null;
    }
  }

  /**
   * The time the last completed run took on the device, in nanoseconds: between GPU timestamps on
   * Vulkan (-1 where the device has none), wall time on the CPU backend; -1 before a run completed.
   *
   * @return nanoseconds, or -1
   */
  public long deviceNanos() {
    return batch.deviceNanos();
  }

  /**
   * Waits for a run still going, then frees the recording and lets go of its arrays (and closes
   * those {@link Batch#floats} made). Closing twice is harmless.
   */
  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      finishRunning();
      batch.release();
    }
  }
}
