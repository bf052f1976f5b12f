package dev.kiln.backend;

/**
 * Launches recorded to run together, in order, each seeing the writes of those before it. Calls are
 * serialized by {@code dev.kiln.Batch}, except {@link #await}, which any thread may call.
 */
public interface BackendBatch extends AutoCloseable {
  /** Records {@code launch} (read during the call, as for {@link Backend#dispatch}). */
  void record(Launch launch);

  /** Starts the recorded launches; {@link #await} waits for them. Called once. */
  void submit();

  /**
   * Starts the recorded launches again {@code runs} times back to back (at least once), once {@link
   * #await} returned or threw for their last start; {@link #await} then waits for these runs and
   * throws the first faulting launch's exception of the first run that faulted. Only for a batch of
   * {@link Backend#recording()}.
   */
  void replay(int runs);

  /**
   * Waits on the calling thread until the submitted launches have run, and throws the exception the
   * first faulting launch would have thrown in Java; a later call returns or throws the same at
   * once.
   */
  void await();

  /** The time the launches took on the device once awaited, in nanoseconds; -1 where unknown. */
  long deviceNanos();

  /** Frees what the batch holds; the launches must have completed, or never been submitted. */
  @Override
  void close();
}
