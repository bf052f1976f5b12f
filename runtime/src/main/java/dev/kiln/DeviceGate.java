package dev.kiln;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * When a {@link Device}'s operations may run: any number of threads at once while it is open, none
 * once {@link #close(Runnable)} began, which waits for those running. Also the device's one
 * completion thread, which waits for batches submitted asynchronously, in order.
 */
final class DeviceGate {

  private final String deviceName;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private volatile boolean closed;

  /** Made on first use. */
  private ExecutorService completions;

  DeviceGate(String deviceName) {
    this.deviceName = deviceName;
  }

  /**
   * Holds the device open for the calling thread until {@link #exit()}. The launch path calls these
   * directly, so that a launch allocates nothing.
   *
   * @throws IllegalStateException where the device is closed (and then holds nothing)
   */
  void enter() {
    lock.readLock().lock();
    if (closed) {
      lock.readLock().unlock();
      checkOpen();
    }
  }

  /** Whether the device was closed. */
  boolean isClosed() {
    return closed;
  }

  /** Lets go of what {@link #enter()} held. */
  void exit() {
    lock.readLock().unlock();
  }

  /** Runs {@code operation} with the device open, between {@link #enter()} and {@link #exit()}. */
  <T> T whileOpen(Supplier<T> operation) {
    enter();
    try {
      return operation.get();
    } finally {
      exit();
    }
  }

  /** {@link #whileOpen(Supplier)} for an operation with no result. */
  void runWhileOpen(Runnable operation) {
    enter();
    try {
      operation.run();
    } finally {
      exit();
    }
  }

  /**
   * Runs {@code operation} while no close runs, whether or not the device closed: what it touches
   * (a batch's outcome or its freeing) is something the backend keeps or makes harmless after a
   * close.
   */
  void meanwhile(Runnable operation) {
    lock.readLock().lock();
    try {
      operation.run();
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Runs {@code operation} only while the device is open; nothing once it closed. */
  void ifOpen(Runnable operation) {
    meanwhile(
        () -> {
          if (!closed) {
            operation.run();
          }
        });
  }

  /**
   * Runs {@code awaiting} on the completion thread; the future completes with its outcome.
   *
   * @param awaiting waits for a batch, and throws what its launches threw
   */
  synchronized CompletableFuture<Void> onCompletionThread(Runnable awaiting) {
    if (completions == null) {
      completions =
          Executors.newSingleThreadExecutor(
              Thread.ofPlatform().daemon().name("kiln-completion").factory());
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    completions.execute(
        () -> {
          try {
            awaiting.run();
            done.complete(null);
          } catch (Throwable e) {
            done.completeExceptionally(e);
          }
        });
    return done;
  }

  void checkOpen() {
    if (closed) {
      throw new IllegalStateException("device " + deviceName + " is closed");
    }
  }

  /**
   * Closes the gate once running operations are done, then runs {@code closing} (once, however
   * often this is called); batches already queued on the completion thread still get their outcome,
   * which the backend kept.
   */
  void close(Runnable closing) {
    lock.writeLock().lock();
    try {
      if (!closed) {
        closed = true;
        closing.run();
      }
    } finally {
      lock.writeLock().unlock();
    }
    synchronized (this) {
      if (completions != null) {
        completions.shutdown();
      }
    }
  }
}
