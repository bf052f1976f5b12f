package dev.kiln;

import dev.kiln.abi.KernelSpec;
import dev.kiln.backend.BackendBatch;
import dev.kiln.backend.Launch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

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
 * } // submits and waits; or batch.submit(), or batch.submitAsync() for a CompletableFuture
 * }</pre>
 *
 * {@link #submit()} waits on the calling thread; {@link #submitAsync()} leaves the waiting to one
 * thread per device, shared by all its batches. The arrays a batch uses must stay unchanged by the
 * host until it completes; closing one is safe: a batch not yet submitted then refuses to run,
 * naming it, and the memory stays until the batch closes. The batch {@link Device#record} passes
 * records a {@link Recording}, which runs it as often as asked; such a batch is not submitted or
 * closed itself.
 */
public final class Batch implements AutoCloseable {
  private final Device device;
  private final BackendBatch backend;

  /**
   * Whether this batch records a {@link Recording}, which runs it, rather than being submitted
   * once.
   */
  private final boolean recording;

  private boolean submitted;

  /** Set once a recording's launches are all recorded: later launches are refused. */
  private boolean sealed;

  /** Why the batch was not submitted (an array closed before it), thrown by every submission. */
  private IllegalStateException refusal;

  private CompletableFuture<Void> completion;
  private boolean closed;

  /** The arrays the launches use, each once, with the first launch argument naming it. */
  private final List<DeviceArray<?, ?>> arrays = new ArrayList<>();

  private final List<String> arrayNames = new ArrayList<>();

  /** The arrays this batch made ({@link #floats}), closed when it closes. */
  private final List<DeviceArray<?, ?>> owned = new ArrayList<>();

  /** {@link #unusedFloats()}'s array, made on its first call. */
  private FloatArray unusedFloats;

  /** {@link #scratchFloats}' arrays, lent by the device: the last is the longest asked for. */
  private final List<FloatArray> scratch = new ArrayList<>();

  Batch(Device device, BackendBatch backend) {
    this(device, backend, false);
  }

  Batch(Device device, BackendBatch backend, boolean recording) {
    this.device = device;
    this.backend = backend;
    this.recording = recording;
  }

  /**
   * Records {@code launch} (grids checked) on device arrays {@code args}; through {@code Dispatch}.
   */
  void record(Launch launch, Object[] args) {
    synchronized (this) {
      checkRecording();
      device.launches.record(backend, launch, args, this);
    }
  }

  /**
   * Holds {@code array}, argument {@code param} of a launch of {@code spec}, until the batch
   * closes.
   */
  void hold(DeviceArray<?, ?> array, KernelSpec spec, int param) {
    for (int k = 0; k < arrays.size(); k++) {
      if (arrays.get(k) == array) {
        return;
      }
    }
    array.holdFor();
    arrays.add(array);
    arrayNames.add("argument '" + spec.params().get(param).name() + "' of " + spec);
  }

  /**
   * A new zero-filled float array on this batch's device that the batch owns: it closes the array
   * when it closes, after its launches have run. For values its launches pass between them, or an
   * argument a kernel takes but does not use.
   *
   * @param length the number of elements
   * @return a new array of zeros, not to be closed by the caller
   */
  public FloatArray floats(int length) {
    return own(() -> device.floats(length));
  }

  /**
   * A new zero-filled int array on this batch's device that the batch owns, as {@link #floats}.
   *
   * @param length the number of elements
   * @return a new array of zeros, not to be closed by the caller
   */
  public IntArray ints(int length) {
    return own(() -> device.ints(length));
  }

  /**
   * A zero-filled float array of one element that the batch owns, the same array on every call: for
   * an argument a kernel takes but does not read (an absent bias), so that launches needing one
   * allocate nothing after the first. Launches that write it share it, as they would any array.
   *
   * @return the batch's one-element array, not to be closed by the caller
   */
  public FloatArray unusedFloats() {
    synchronized (this) {
      if (unusedFloats == null) {
        unusedFloats = floats(1);
      }
      return unusedFloats;
    }
  }

  /**
   * A float array of at least {@code length} elements that the batch holds, for values one launch
   * writes and a later one reads (a library's temporaries, such as a split product's partial sums):
   * the same array on every call while it is long enough, a longer one where it is not. The device
   * lends it and takes it back when the batch closes, for a later batch: its values are what
   * launches before left there, of this batch or an earlier one. Launches that use it are ordered
   * as any launches sharing an array are, so launches meant to overlap each need an array of their
   * own ({@link #floats}).
   *
   * @param length the fewest elements it must have
   * @return the batch's scratch array, not to be closed by the caller
   */
  public FloatArray scratchFloats(int length) {
    synchronized (this) {
      checkRecording();
      if (scratch.isEmpty() || scratch.getLast().length() < length) {
        scratch.add(device.lendScratch(length));
      }
      return scratch.getLast();
    }
  }

  private <A extends DeviceArray<?, ?>> A own(java.util.function.Supplier<A> allocation) {
    synchronized (this) {
      checkRecording();
      A array = allocation.get();
      owned.add(array);
      return array;
    }
  }

  private void checkRecording() {
    if (sealed) {
      throw new IllegalStateException(
          "this batch's recording is complete: Device.record returned; record into a new one");
    }
    if (submitted || closed) {
      throw new IllegalStateException("this batch has been submitted; record into a new one");
    }
  }

  /** Refuses a submission or close of a recording's batch, which its {@link Recording} runs. */
  private void checkNotRecording() {
    if (recording) {
      throw new IllegalStateException(
          "this batch records a Recording: run it with Recording.replay() once Device.record"
              + " returned it, and close the Recording");
    }
  }

  /** Ends a recording's batch: no launch is recorded into it any more. */
  void seal() {
    synchronized (this) {
      sealed = true;
    }
  }

  /**
   * Starts a recording's launches {@code runs} times back to back: submits them the first time
   * (waiting for that run before the others), else runs them again (the last run awaited); refused,
   * naming it, where an array they use was closed.
   */
  void replay(int runs) {
    synchronized (this) {
      if (submitted) {
        checkArraysOpen();
        device.gate().runWhileOpen(() -> backend.replay(runs));
      } else {
        start();
        if (runs > 1) {
          backend.await();
          device.gate().runWhileOpen(() -> backend.replay(runs - 1));
        }
      }
    }
  }

  /** The backend's batch, for the {@link Recording} that awaits it. */
  BackendBatch backend() {
    return backend;
  }

  /**
   * Submits the recorded launches once; later calls do nothing, or throw the refusal again. A batch
   * whose arrays were closed after it recorded them is refused, naming the first such array.
   */
  private void start() {
    if (refusal != null) {
      throw refusal;
    }
    if (!submitted) {
      try {
        checkArraysOpen();
      } catch (IllegalStateException e) {
        refusal = e;
        throw e;
      }
      device.gate().runWhileOpen(backend::submit);
      submitted = true;
    }
  }

  /** Throws where an array the launches use was closed after they were recorded, naming it. */
  private void checkArraysOpen() {
    for (int k = 0; k < arrays.size(); k++) {
      if (arrays.get(k).isClosed()) {
        throw new IllegalStateException(
            "this "
                + (recording ? "recording" : "batch")
                + " was not submitted: the "
                + arrays.get(k).getClass().getSimpleName()
                + " passed as "
                + arrayNames.get(k)
                + " was closed after the launch was recorded; close arrays after the "
                + (recording ? "recordings" : "batches")
                + " that use them");
      }
    }
  }

  /**
   * Submits the recorded launches (if not done yet); the future completes when they have run, or
   * with the exception the first faulting launch threw. No thread is made per batch: one thread per
   * device waits for the batches submitted this way, in order.
   *
   * @return a future that completes when the launches have run
   */
  public CompletableFuture<Void> submitAsync() {
    checkNotRecording();
    synchronized (this) {
      if (completion == null) {
        start();
        completion = device.awaitAsync(backend);
      }
      return completion;
    }
  }

  /**
   * Submits the recorded launches (if not done yet) and waits for them on the calling thread;
   * throws what a launch threw. Calling it again waits no more and throws the same.
   */
  public void submit() {
    checkNotRecording();
    CompletableFuture<Void> async;
    synchronized (this) {
      start();
      async = completion;
    }
    if (async == null) {
      device.await(backend);
    } else {
      try {
        async.join();
      } catch (java.util.concurrent.CompletionException e) {
        if (e.getCause() instanceof RuntimeException cause) {
          throw cause;
        }
        throw e;
      }
    }
  }

  /**
   * The time the batch's launches took on the device, once it completed, in nanoseconds: between
   * GPU timestamps at its start and its end on Vulkan (-1 where the device has none), wall time on
   * the CPU backend; -1 before it completed.
   *
   * @return nanoseconds, or -1
   */
  public long deviceNanos() {
    return backend.deviceNanos();
  }

  /**
   * Submits and waits if nothing did yet, then frees the batch and lets go of its arrays (an array
   * closed meanwhile is freed now). A failure of the launches is thrown here only when this call
   * submitted them: one {@link #submit()} or the future of {@link #submitAsync()} already reported
   * is not thrown again. Closing twice is harmless.
   */
  @Override
  public void close() {
    checkNotRecording();
    release();
  }

  /** {@link #close()}'s work, which for a recording's batch its {@link Recording} asks for. */
  void release() {
    boolean submitHere;
    CompletableFuture<Void> async;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      submitHere = !submitted && refusal == null && !recording; // a recording runs if asked
      async = completion;
    }
    try {
      if (submitHere) {
        start();
        device.await(backend);
      } else if (async != null) {
        async.exceptionally(failure -> null).join(); // wait for it; the future reports the failure
      } else if (submitted) {
        try {
          device.await(backend); // submitted and awaited already: returns or throws at once
        } catch (RuntimeException reported) { // submit() threw it
        }
      }
    } finally {
      device.closeBatch(backend);
      owned.forEach(DeviceArray::close);
      owned.clear();
      arrays.forEach(DeviceArray::letGo);
      arrays.clear();
      scratch.forEach(device::returnScratch);
      scratch.clear();
    }
  }
}
