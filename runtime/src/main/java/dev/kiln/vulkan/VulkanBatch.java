package dev.kiln.vulkan;

import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.KernelSpec;
import dev.kiln.annotations.Access;
import dev.kiln.backend.BackendBatch;
import dev.kiln.backend.KernelDescriptions;
import dev.kiln.backend.Launch;
import java.util.ArrayList;
import java.util.List;

/**
 * Launches recorded into one command buffer, with the fence, fault buffers and timestamps of its
 * {@link LaunchRecorder} (taken from the device's idle ones), so that a batch in flight and other
 * launches share no state. Between two launches there is a barrier only where the later one uses a
 * buffer the earlier ones wrote since the last barrier, or writes one they read; the buffers since
 * the last barrier are tracked in small arrays, and a barrier is simply recorded where more than
 * {@link #TRACKED} of them would need tracking. Each launch takes fault regions of its own, so that
 * the fault thrown is the first faulting launch's, as in Java. Waiting happens on the thread that
 * asks for it. A replayable batch (a recording) is submitted again as it is, as often as asked in
 * one submission (its command buffer may be pending more than once): its fault regions zeroed,
 * nothing recorded anew; a fault of any run stays in them, so the first faulting launch's region
 * and place is what the runs report, and the timestamps are the last run's.
 */
final class VulkanBatch implements BackendBatch {
  static final int TRACKED = 16;

  private enum State {
    RECORDING,
    SUBMITTED,
    DONE,
    CLOSED
  }

  private final VulkanBackend backend;
  private final boolean replayable;

  /** Null once the device took it back from a batch left open when it closed. */
  private LaunchRecorder recorder;

  private final long[] written = new long[TRACKED];
  private final long[] read = new long[TRACKED];
  private int writtenCount;
  private int readCount;

  /** Set where a launch touched more buffers than are tracked: the next launch waits for it. */
  private boolean untracked;

  /** The kernels launched, each once, for messages. */
  private final List<KernelSpec> kernels = new ArrayList<>();

  private State state = State.RECORDING;
  private RuntimeException failure;
  private long deviceNanos = -1;

  VulkanBatch(VulkanBackend backend, LaunchRecorder recorder, boolean replayable) {
    this.backend = backend;
    this.recorder = recorder;
    this.replayable = replayable;
    recorder.faults.clear();
    if (replayable) {
      recorder.beginReusable();
    } else {
      recorder.begin();
    }
    recorder.timer.start(recorder.commands);
    recorder.barrierBeforeLaunches();
  }

  @Override
  public void record(Launch launch) {
    KernelSpec spec = launch.spec();
    KernelDescription kernel = KernelDescriptions.of(spec);
    ComputePipeline pipeline = backend.pipeline(launch);
    if (untracked || hazard(launch, kernel)) {
      recorder.barrierBetweenLaunches();
      writtenCount = 0;
      readCount = 0;
      untracked = false;
    }
    recorder.record(pipeline, launch);
    for (int param = 0; param < spec.params().size(); param++) {
      if (launch.arg(param) instanceof VulkanBuffer buffer) {
        Access access = kernel.access(param);
        if (access != Access.WRITE) {
          readCount = track(read, readCount, buffer.handle());
        }
        if (access != Access.READ) {
          writtenCount = track(written, writtenCount, buffer.handle());
        }
      }
    }
    if (!kernels.contains(spec)) {
      kernels.add(spec);
    }
  }

  /**
   * Whether {@code launch} uses a buffer written since the last barrier, or writes one read since.
   */
  private boolean hazard(Launch launch, KernelDescription kernel) {
    KernelSpec spec = launch.spec();
    for (int param = 0; param < spec.params().size(); param++) {
      if (launch.arg(param) instanceof VulkanBuffer buffer) {
        long handle = buffer.handle();
        if (contains(written, writtenCount, handle)
            || kernel.access(param) != Access.READ && contains(read, readCount, handle)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean contains(long[] handles, int count, long handle) {
    for (int i = 0; i < count; i++) {
      if (handles[i] == handle) {
        return true;
      }
    }
    return false;
  }

  /** Adds {@code handle} to {@code handles} unless there; the new count. */
  private int track(long[] handles, int count, long handle) {
    if (contains(handles, count, handle)) {
      return count;
    }
    if (count == TRACKED) {
      untracked = true;
      return count;
    }
    handles[count] = handle;
    return count + 1;
  }

  @Override
  public void submit() {
    recorder.timer.stop(recorder.commands);
    recorder.end();
    recorder.submit();
    state = State.SUBMITTED;
  }

  @Override
  public synchronized void replay(int runs) {
    if (!replayable || state != State.DONE) {
      throw new IllegalStateException(
          !replayable
              ? "only a recording is replayed"
              : "the recording's last run was not awaited");
    }
    recorder.faults.rearm();
    failure = null;
    deviceNanos = -1;
    recorder.submit(runs);
    state = State.SUBMITTED;
  }

  @Override
  public synchronized void await() {
    switch (state) {
      case RECORDING -> throw new IllegalStateException("the batch has not been submitted");
      case DONE, CLOSED -> {
        if (failure != null) {
          throw failure;
        }
        return;
      }
      case SUBMITTED -> {}
    }
    if (recorder == null) {
      throw new IllegalStateException("the device closed before this batch's outcome was read");
    }
    recorder.await(this);
    state = State.DONE;
    deviceNanos = recorder.timer.elapsedNanos(backend.device());
    try {
      backend.checkValidation("while running ", this);
      recorder.faults.throwIfAnyInBatch();
    } catch (RuntimeException e) {
      failure = e;
      throw e;
    }
  }

  @Override
  public long deviceNanos() {
    return deviceNanos;
  }

  /**
   * For the device closing with this batch open: its outcome read if it ran, its recorder
   * destroyed.
   */
  synchronized void abandon() {
    if (recorder == null) {
      return;
    }
    if (state == State.SUBMITTED) {
      try {
        await();
      } catch (RuntimeException e) { // kept for whoever awaits it, or lost with the batch
      }
    }
    recorder.destroy();
    recorder = null;
  }

  @Override
  public synchronized void close() {
    if (state == State.CLOSED) {
      return;
    }
    boolean idle = state != State.SUBMITTED; // never submitted, or awaited
    state = State.CLOSED;
    if (recorder != null) {
      backend.batchClosed(this, recorder, idle);
      recorder = null;
    }
  }

  /** "a batch (kernels)", for messages. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("a batch (");
    for (int k = 0; k < kernels.size(); k++) {
      text.append(k == 0 ? "" : ", ").append(kernels.get(k));
    }
    return text.append(')').toString();
  }
}
