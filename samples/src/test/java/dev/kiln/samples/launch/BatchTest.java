package dev.kiln.samples.launch;

import dev.kiln.samples.SaxpyKernels;
import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import dev.kiln.samples.testing.TestDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Batch;
import dev.kiln.Device;
import dev.kiln.FloatArray;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Batches: many launches, one submission, each launch seeing the writes of those before it. */
class BatchTest extends BothDevices {
  private static final int N = 1001;

  /** {@code y += x}, {@code launches} times, in plain Java. */
  private static float[] expected(float[] x, float[] y, int launches) {
    float[] result = y.clone();
    for (int r = 0; r < launches; r++) {
      for (int i = 0; i < N; i++) {
        result[i] = 1f * x[i] + result[i];
      }
    }
    return result;
  }

  @Test
  void aThousandDependentLaunchesInABatchEqualTheSameLaunchesOneByOne() {
    Random random = new Random(7);
    float[] x = Bits.randomFloats(random, N, 1f);
    float[] y = Bits.randomFloats(random, N, 1f);
    for (Device device : new Device[] {vulkan, cpu}) {
      try (FloatArray dx = device.upload(x); FloatArray batched = device.upload(y); FloatArray single = device.upload(y)) {
        try (Batch batch = device.batch()) {
          for (int r = 0; r < 1000; r++) {
            SaxpyKernels.saxpy(batch, N, 1f, dx, batched);
          }
        }
        for (int r = 0; r < 1000; r++) {
          SaxpyKernels.saxpy(device, N, 1f, dx, single);
        }
        Bits.assertSameBits("batched on " + device.backend(), single.toArray(), batched.toArray());
        Bits.assertSameBits("against Java on " + device.backend(), expected(x, y, 1000), batched.toArray());
      }
    }
  }

  /** Records 100 launches of {@code y += x} on a copy of {@code x} that only the batch references afterwards. */
  private static Batch recordOnADroppedArray(Device device, float[] x, FloatArray y) {
    Batch batch = device.batch();
    FloatArray dx = device.upload(x); // never closed: the garbage collector finds it once the batch lets go
    for (int r = 0; r < 100; r++) {
      SaxpyKernels.saxpy(batch, N, 1f, dx, y);
    }
    return batch;
  }

  /** Collects garbage until the device has {@code expected} arrays, for at most 250 rounds. */
  private static int arraysAfterCollecting(Device device, int expected) throws InterruptedException {
    for (int i = 0; i < 250 && device.memory().arrays() != expected; i++) {
      System.gc();
      Thread.sleep(20);
    }
    return device.memory().arrays();
  }

  /**
   * The device's arrays once garbage was collected long enough for the cleaner to free what is
   * unreachable: until an object dropped now is collected, then {@value #ROUNDS_AFTER} more rounds
   * (freeing a dropped array takes one round in arraysAfterCollecting, on lavapipe and the CPU
   * backend). For checks that an array stays, which would otherwise wait all 250 rounds: most of
   * this class's 80 s in CI, now 4.
   */
  private static int arraysAfterACollection(Device device) throws InterruptedException {
    java.lang.ref.WeakReference<Object> dropped = new java.lang.ref.WeakReference<>(new Object());
    for (int i = 0; i < 250 && dropped.get() != null; i++) {
      System.gc();
      Thread.sleep(20);
    }
    for (int i = 0; i < ROUNDS_AFTER; i++) {
      System.gc();
      Thread.sleep(20);
    }
    return device.memory().arrays();
  }

  private static final int ROUNDS_AFTER = 10;

  /**
   * An array the program dropped stays while a batch holds it, even one dropped itself while it
   * runs, and is freed once the batch closes.
   */
  @Test
  void aDroppedArrayStaysWhileABatchHoldsIt() throws Exception {
    Random random = new Random(9);
    float[] x = Bits.randomFloats(random, N, 1f);
    float[] y = Bits.randomFloats(random, N, 1f);
    for (Device device : new Device[] {vulkan, cpu}) {
      int before = device.memory().arrays();
      try (FloatArray dy = device.upload(y)) {
        Batch batch = recordOnADroppedArray(device, x, dy);
        java.util.concurrent.CompletableFuture<Void> done = batch.submitAsync();
        batch = null; // dropped while it runs: its arrays must stay until it closes, which it never does
        assertEquals(before + 2, arraysAfterACollection(device), "the dropped batch's array was freed");
        done.get(60, TimeUnit.SECONDS);
        Bits.assertSameBits("y after 100 launches on " + device.backend(), expected(x, y, 100), dy.toArray());

        dy.upload(y);
        try (Batch closing = recordOnADroppedArray(device, x, dy)) {
          assertEquals(before + 3, arraysAfterACollection(device), "an array the batch holds was freed");
        }
        Bits.assertSameBits("y again on " + device.backend(), expected(x, y, 100), dy.toArray());
        assertEquals(before + 2, arraysAfterCollecting(device, before + 2), "freed once the batch closed");
      }
    }
  }

  /** {@code Batch.floats}: an array the batch owns carries a value between its launches, and closes with it. */
  @Test
  void anArrayTheBatchMadeCarriesValuesBetweenLaunchesAndClosesWithTheBatch() {
    Random random = new Random(8);
    float[] x = Bits.randomFloats(random, N, 1f);
    float[] y = Bits.randomFloats(random, N, 1f);
    float[] expected = new float[N];
    for (int i = 0; i < N; i++) {
      float copy = 1f * x[i] + 0f;
      expected[i] = 2f * copy + y[i];
    }
    for (Device device : new Device[] {vulkan, cpu}) {
      int buffersBefore = device.resources().buffers();
      FloatArray between;
      try (FloatArray dx = device.upload(x); FloatArray dy = device.upload(y)) {
        try (Batch batch = device.batch()) {
          between = batch.floats(N);
          SaxpyKernels.saxpy(batch, N, 1f, dx, between); // between = x + 0
          SaxpyKernels.saxpy(batch, N, 2f, between, dy);
        }
        Bits.assertSameBits("on " + device.backend(), expected, dy.toArray());
      }
      assertThrows(IllegalStateException.class, between::toArray, "closed with its batch");
      assertEquals(buffersBefore, device.resources().buffers(), "every buffer freed on " + device.backend());
    }
  }

  /**
   * {@code Batch.scratchFloats}: one array while it is long enough, a longer one where not; two open
   * batches hold different arrays; a later batch gets the device's spare back rather than a new one
   * (the arrays are lent, not closed with the batch).
   */
  @Test
  void theScratchArrayIsReusedWhileLongEnoughAndLentAgainAfterTheBatch() {
    for (Device device : new Device[] {vulkan, cpu}) {
      FloatArray first;
      FloatArray longer;
      FloatArray others;
      try (Batch batch = device.batch()) {
        first = batch.scratchFloats(N);
        assertTrue(first.length() >= N);
        assertSame(first, batch.scratchFloats(N / 2), "shorter: the same on " + device.backend());
        longer = batch.scratchFloats(first.length() + 1);
        assertNotSame(first, longer, "longer: another on " + device.backend());
        assertTrue(longer.length() > first.length());
        assertSame(longer, batch.scratchFloats(N), "the longest kept on " + device.backend());
        try (Batch other = device.batch()) {
          others = other.scratchFloats(N);
          assertNotSame(longer, others, "each open batch its own on " + device.backend());
          assertNotSame(first, others, "each open batch its own on " + device.backend());
        }
      }
      int buffers = device.resources().buffers();
      try (Batch later = device.batch()) {
        FloatArray again = later.scratchFloats(N);
        assertTrue(
            again == first || again == longer || again == others,
            "lent again on " + device.backend());
        assertEquals(buffers, device.resources().buffers(), "nothing new on " + device.backend());
      }
    }
  }

  @Test
  void theUnusedArrayIsOneArrayPerBatchAndClosesWithIt() {
    for (Device device : new Device[] {vulkan, cpu}) {
      try (Batch warm = device.batch(); Batch nested = device.batch()) {
        warm.unusedFloats(); // the device's pooled recorders, which keep buffers of their own
      }
      int buffersBefore = device.resources().buffers();
      FloatArray first;
      try (Batch batch = device.batch()) {
        first = batch.unusedFloats();
        assertSame(first, batch.unusedFloats(), "the same array on " + device.backend());
        assertEquals(1, first.length());
        if (device == vulkan) { // the CPU backend's arrays are Java arrays, no native buffers
          assertEquals(buffersBefore + 1, device.resources().buffers(), "one buffer");
        }
        try (Batch other = device.batch()) {
          assertNotSame(first, other.unusedFloats(), "each batch its own on " + device.backend());
        }
      }
      assertThrows(IllegalStateException.class, first::toArray, "closed with its batch");
      assertEquals(buffersBefore, device.resources().buffers(), "every buffer freed on " + device.backend());
    }
  }

  @Test
  void independentAndDependentLaunchesMixed() throws Exception {
    float[] ones = new float[N];
    java.util.Arrays.fill(ones, 1f);
    try (FloatArray x = vulkan.upload(ones); FloatArray a = vulkan.floats(N); FloatArray b = vulkan.floats(N)) {
      Batch batch = vulkan.batch();
      SaxpyKernels.saxpy(batch, N, 2f, x, a); // a = 2
      SaxpyKernels.saxpy(batch, N, 3f, x, b); // b = 3, independent of a
      SaxpyKernels.saxpy(batch, N, 5f, a, b); // b = 5 * a + b = 13, reads a's and b's writes
      batch.submitAsync().get(60, TimeUnit.SECONDS);
      batch.close();
      float[] thirteen = new float[N];
      java.util.Arrays.fill(thirteen, 13f);
      Bits.assertSameBits("b", thirteen, b.toArray());
    }
  }

  @Test
  void aFaultInABatchIsThrown() {
    try (FloatArray out = vulkan.floats(10); FloatArray canary = vulkan.floats(10)) {
      Batch batch = vulkan.batch();
      corpus.FaultsKernels.writeShifted(batch, 10, out, canary, 5);
      ExecutionException thrown = assertThrows(ExecutionException.class, () -> batch.submitAsync().get());
      assertTrue(thrown.getCause() instanceof ArrayIndexOutOfBoundsException, thrown.toString());
      assertTrue(thrown.getCause().getMessage().contains("Faults#writeShifted"), thrown.getCause().getMessage());
      assertThrows(ArrayIndexOutOfBoundsException.class, batch::submit, "submitting again reports the same failure");
      batch.close(); // the future reported the failure: closing does not throw it again
      batch.close();
    }
  }

  @Test
  void aFaultInATryWithResourcesBatchIsThrownOnceAndPlainly() {
    try (FloatArray out = vulkan.floats(10); FloatArray canary = vulkan.floats(10)) {
      ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class, () -> {
        try (Batch batch = vulkan.batch()) {
          corpus.FaultsKernels.writeShifted(batch, 10, out, canary, 5);
          batch.submit();
        }
      });
      assertEquals(0, thrown.getSuppressed().length, "close() must not throw what submit() threw");
      assertTrue(thrown.getMessage().contains("Faults#writeShifted"), thrown.getMessage());
      ArrayIndexOutOfBoundsException onClose = assertThrows(ArrayIndexOutOfBoundsException.class, () -> {
        try (Batch batch = vulkan.batch()) {
          corpus.FaultsKernels.writeShifted(batch, 10, out, canary, 5);
        } // close submits, so close reports the failure
      });
      assertEquals(0, onClose.getSuppressed().length);
    }
  }

  @Test
  void closingTheDeviceWhileABatchRunsWaitsForIt() throws Exception {
    for (int round = 0; round < 3; round++) {
      try (Device device = TestDevices.vulkan()) {
        FloatArray x = device.upload(new float[N]);
        FloatArray y = device.floats(N);
        Batch batch = device.batch();
        for (int r = 0; r < 200; r++) {
          SaxpyKernels.saxpy(batch, N, 1f, x, y);
        }
        java.util.concurrent.CompletableFuture<Void> done = batch.submitAsync();
        device.close(); // waits for the batch; its future still completes
        done.get(60, TimeUnit.SECONDS);
        batch.close();
        assertThrows(IllegalStateException.class, () -> SaxpyKernels.saxpy(device, N, 1f, x, y));
      }
    }
  }

  @Test
  void aBatchReportsItsDeviceTime() {
    try (FloatArray x = vulkan.floats(N); FloatArray y = vulkan.floats(N); Batch batch = vulkan.batch()) {
      assertEquals(-1, batch.deviceNanos(), "before it ran");
      for (int r = 0; r < 10; r++) {
        SaxpyKernels.saxpy(batch, N, 1f, x, y);
      }
      batch.submit();
      assertTrue(batch.deviceNanos() > 0, "GPU timestamps: " + batch.deviceNanos());
    }
  }

  @Test
  void aBatchWhoseArrayWasClosedIsRefusedNamingIt() {
    for (Device device : new Device[] {vulkan, cpu}) {
      FloatArray x = device.floats(N);
      try (FloatArray y = device.floats(N)) {
        Batch batch = device.batch();
        SaxpyKernels.saxpy(batch, N, 1f, x, y);
        x.close();
        IllegalStateException refused = assertThrows(IllegalStateException.class, batch::submit);
        assertTrue(refused.getMessage().contains("argument 'x' of dev.kiln.samples.Saxpy#saxpy"), refused.getMessage());
        assertThrows(IllegalStateException.class, batch::submitAsync, "refused again, not submitted");
        batch.close(); // frees the batch and, now, x
        IllegalStateException onClose = assertThrows(IllegalStateException.class, () -> {
          try (FloatArray z = device.floats(N); Batch other = device.batch()) {
            SaxpyKernels.saxpy(other, N, 1f, z, y);
            z.close();
          }
        });
        assertTrue(onClose.getMessage().contains("argument 'x'"), onClose.getMessage());
      }
    }
  }

  @Test
  void anArrayClosedWhileItsBatchRunsIsFreedOnlyAfterIt() throws Exception {
    float[] ones = new float[N];
    java.util.Arrays.fill(ones, 1f);
    for (int round = 0; round < 3; round++) {
      FloatArray x = vulkan.upload(ones);
      try (FloatArray y = vulkan.floats(N)) {
        Batch batch = vulkan.batch();
        for (int r = 0; r < 300; r++) {
          SaxpyKernels.saxpy(batch, N, 1f, x, y);
        }
        java.util.concurrent.CompletableFuture<Void> done = batch.submitAsync();
        x.close(); // the batch still reads x: its memory stays until the batch closes
        try (FloatArray scratch = vulkan.upload(new float[N])) { // memory reused would show here
          done.get(60, TimeUnit.SECONDS);
        }
        batch.close();
        float[] expected = new float[N];
        java.util.Arrays.fill(expected, 300f);
        Bits.assertSameBits("y after 300 launches", expected, y.toArray());
      }
    }
  }
}
