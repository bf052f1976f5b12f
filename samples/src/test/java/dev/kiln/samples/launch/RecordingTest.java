package dev.kiln.samples.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.DeviceResources;
import dev.kiln.IntArray;
import dev.kiln.Recording;
import dev.kiln.samples.testing.BothDevices;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Recordings: launches recorded once and run again, each run seeing what the host wrote to device
 * arrays before it and what the runs before it wrote, faulting as Java would, refusing misuse, and
 * holding no more device resources however often they run.
 */
class RecordingTest extends BothDevices {
  private static final int N = 1001;
  private static final int STEPS = 40;

  /** Two steps of {@code y += x * (p + 1)} and {@code log[p] = y[p]}, in plain Java. */
  private static void step(int p, int[] x, int[] y, int[] log) {
    for (int r = 0; r < 2; r++) {
      for (int i = 0; i < N; i++) {
        y[i] = y[i] + x[i] * (p + 1);
      }
    }
    log[p] = y[p];
  }

  private static void recordStep(Batch batch, IntArray position, IntArray x, IntArray y, IntArray log) {
    StepKernelsKernels.scaledAdd(batch, N, position, x, y, 0);
    StepKernelsKernels.scaledAdd(batch, N, position, x, y, 0);
    StepKernelsKernels.keep(batch, 1, position, y, log);
  }

  @Test
  void eachRunSeesTheHostsWritesAndTheRunsBeforeIt() throws Exception {
    Random random = new Random(11);
    int[] x = new int[N];
    int[] y = new int[N];
    for (int i = 0; i < N; i++) {
      x[i] = random.nextInt(1000) - 500;
      y[i] = random.nextInt();
    }
    for (Device device : new Device[] {vulkan, cpu}) {
      int[] expectedY = y.clone();
      int[] expectedLog = new int[STEPS];
      try (IntArray position = device.ints(1);
          IntArray dx = device.upload(x);
          IntArray dy = device.upload(y);
          IntArray log = device.ints(STEPS);
          Recording recording = device.record(batch -> recordStep(batch, position, dx, dy, log))) {
        assertEquals(-1, recording.deviceNanos(), "no run yet on " + device.backend());
        for (int p = 0; p < STEPS; p++) {
          position.upload(new int[] {p}); // no run is going: the host may write
          int runs = 1;
          if (p % 4 == 3) { // three runs back to back: each waits for the one before
            recording.replayAsync();
            CompletableFuture<Void> second = recording.replayAsync();
            recording.replay();
            assertTrue(second.isDone(), "the second run was done before the third started");
            runs = 3;
          } else if (p % 2 == 1) {
            recording.replayAsync().get(60, TimeUnit.SECONDS);
          } else {
            recording.replay();
          }
          for (int r = 0; r < runs; r++) {
            step(p, x, expectedY, expectedLog);
          }
        }
        assertArrayEquals(expectedY, dy.toArray(), "y after the runs on " + device.backend());
        assertArrayEquals(expectedLog, log.toArray(), "the log on " + device.backend());
      }
    }
  }

  /**
   * Runs back to back ({@code replay(runs)}: one submission, the first call's too) are runs one
   * after the other, each seeing the writes of the one before, here the position it moved on; a
   * fault in one of them throws Java's exception.
   */
  @Test
  void runsBackToBackAreRunsOneAfterTheOther() {
    Random random = new Random(12);
    int[] x = new int[N];
    int[] y = new int[N];
    for (int i = 0; i < N; i++) {
      x[i] = random.nextInt(1000) - 500;
      y[i] = random.nextInt();
    }
    for (Device device : new Device[] {vulkan, cpu}) {
      int[] expectedY = y.clone();
      int[] expectedLog = new int[STEPS];
      for (int p = 0; p < STEPS; p++) {
        step(p, x, expectedY, expectedLog);
      }
      try (IntArray position = device.ints(1);
          IntArray dx = device.upload(x);
          IntArray dy = device.upload(y);
          IntArray log = device.ints(STEPS);
          Recording recording =
              device.record(
                  batch -> {
                    recordStep(batch, position, dx, dy, log);
                    StepKernelsKernels.advance(batch, 1, position);
                  })) {
        int[] runs = {5, 1, 12, STEPS - 18};
        for (int r : runs) {
          recording.replay(r);
        }
        assertArrayEquals(new int[] {STEPS}, position.toArray(), "the position on " + device.backend());
        assertArrayEquals(expectedY, dy.toArray(), "y after the runs on " + device.backend());
        assertArrayEquals(expectedLog, log.toArray(), "the log on " + device.backend());
        assertTrue(recording.deviceNanos() > 0, "the last run's time on " + device.backend());

        ArrayIndexOutOfBoundsException past =
            assertThrows(ArrayIndexOutOfBoundsException.class, () -> recording.replay(3));
        assertTrue(past.getMessage().contains("Index " + STEPS + " out of bounds")
                && past.getMessage().contains("StepKernels#keep"),
            past.getMessage());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> recording.replay(0));
        assertEquals("0 runs: a recording runs at least once", none.getMessage());
      }
    }
  }

  /**
   * A run that faults throws Java's exception, the first faulting launch's (the launches before it
   * having run), and the recording runs again, right, once the host fixed the position.
   */
  @Test
  void aFaultingRunThrowsJavasExceptionAndTheRecordingRunsAgain() {
    int[] y = new int[N];
    for (int i = 0; i < N; i++) {
      y[i] = 7 * i - 3000;
    }
    for (Device device : new Device[] {vulkan, cpu}) {
      try (IntArray position = device.ints(1);
          IntArray dx = device.upload(new int[N]);
          IntArray dy = device.upload(y);
          IntArray log = device.ints(2);
          Recording recording =
              device.record(
                  batch -> {
                    StepKernelsKernels.scaledAdd(batch, N, position, dx, dy, 1);
                    StepKernelsKernels.keep(batch, 1, position, dy, log);
                  })) {
        ArithmeticException byZero = assertThrows(ArithmeticException.class, recording::replay);
        assertTrue(byZero.getMessage().contains("/ by zero") && byZero.getMessage().contains("StepKernels#scaledAdd"),
            byZero.getMessage());
        assertArrayEquals(y, dy.toArray(), "no invocation divided on " + device.backend());

        position.upload(new int[] {3}); // y / 3, then log[3]: out of bounds in launch 2
        CompletionException late = assertThrows(CompletionException.class, () -> recording.replayAsync().join());
        assertTrue(late.getCause() instanceof ArrayIndexOutOfBoundsException aioobe
                && aioobe.getMessage().contains("Index 3 out of bounds")
                && aioobe.getMessage().contains("StepKernels#keep"),
            late.getCause().toString());
        int[] expected = y.clone();
        for (int i = 0; i < N; i++) {
          expected[i] /= 3;
        }
        assertArrayEquals(expected, dy.toArray(), "launch 1 ran before launch 2 faulted on " + device.backend());

        position.upload(new int[] {1});
        log.upload(new int[2]); // after a fault only the exception is defined: on Vulkan later launches ran
        recording.replay();
        for (int i = 0; i < N; i++) {
          expected[i] /= 1;
        }
        assertArrayEquals(new int[] {0, expected[1]}, log.toArray(), "the run after the faults on " + device.backend());
      }
    }
  }

  /**
   * The recording's batch is neither submitted nor closed by hand and takes no launch once recorded;
   * a run after an array it uses was closed, or after the recording closed, is refused.
   */
  @Test
  void misuseIsRefusedNamingWhatToDo() {
    for (Device device : new Device[] {vulkan, cpu}) {
      try (IntArray position = device.ints(1); IntArray y = device.ints(N); IntArray log = device.ints(1)) {
        Batch[] kept = new Batch[1];
        IllegalStateException submitted =
            assertThrows(IllegalStateException.class, () -> device.record(batch -> {
              StepKernelsKernels.keep(batch, 1, position, y, log);
              batch.submit();
            }));
        assertEquals("this batch records a Recording: run it with Recording.replay() once Device.record returned it,"
            + " and close the Recording", submitted.getMessage());
        assertThrows(IllegalStateException.class, () -> device.record(Batch::close));

        IntArray x = device.upload(new int[N]);
        Recording recording = device.record(batch -> {
          kept[0] = batch;
          StepKernelsKernels.scaledAdd(batch, N, position, x, y, 0);
        });
        IllegalStateException late =
            assertThrows(IllegalStateException.class, () -> StepKernelsKernels.keep(kept[0], 1, position, y, log));
        assertEquals("this batch's recording is complete: Device.record returned; record into a new one",
            late.getMessage());
        recording.replay();
        x.close();
        IllegalStateException closedArray = assertThrows(IllegalStateException.class, recording::replay);
        assertEquals("this recording was not submitted: the IntArray passed as argument 'x' of "
            + "dev.kiln.samples.launch.StepKernels#scaledAdd was closed after the launch was recorded; close arrays"
            + " after the recordings that use them", closedArray.getMessage());
        recording.close();
        IllegalStateException closed = assertThrows(IllegalStateException.class, recording::replay);
        assertEquals("this recording is closed", closed.getMessage());
        recording.close();
      }
    }
  }

  /**
   * A thousand runs hold what one run holds, and closing the recording gives back all it held: its
   * batch, its recorder and the arrays it made.
   */
  @Test
  void runsHoldNoMoreThanOneRunAndClosingFreesAll() {
    for (Device device : new Device[] {vulkan, cpu}) {
      try (IntArray position = device.ints(1); IntArray x = device.ints(N); IntArray y = device.ints(N)) {
        position.upload(new int[] {1});
        x.upload(java.util.stream.IntStream.range(0, N).toArray());
        device.record(batch -> StepKernelsKernels.keep(batch, 1, position, x, y)).close(); // a recorder made
        DeviceResources before = device.resources();
        try (Recording recording = device.record(batch -> {
          IntArray made = batch.ints(N);
          StepKernelsKernels.scaledAdd(batch, N, position, x, made, 0);
          StepKernelsKernels.scaledAdd(batch, N, position, made, y, 0);
        })) {
          recording.replay();
          DeviceResources settled = device.resources();
          for (int r = 1; r < 1000; r++) {
            recording.replay();
          }
          assertEquals(settled, device.resources(), "after 1000 runs on " + device.backend());
        }
        assertEquals(before, device.resources(), "after the close on " + device.backend());
        int[] expected = new int[N];
        for (int i = 0; i < N; i++) {
          expected[i] = (int) (4L * i * (1000 * 1001 / 2)); // run r adds 2i * r to made, twice that to y
        }
        assertArrayEquals(expected, y.toArray(), "y after 1000 runs on " + device.backend());
      }
    }
  }
}
