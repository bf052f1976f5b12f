package dev.kiln.samples.launch;

import dev.kiln.samples.PolynomialKernels;
import dev.kiln.samples.SaxpyKernels;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.FloatArray;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One device used from many threads, and the limits it refuses clearly. */
class SharedDeviceTest extends BothDevices {
  @Test
  void eightThreadsMakingFiveHundredMixedLaunchesEachGetTheirOwnResults() throws Exception {
    int n = 1000;
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        float a = t + 1;
        done.add(pool.submit(() -> {
          float[] x = new float[n];
          java.util.Arrays.fill(x, 1f);
          float[] coefficients = {a, 1f}; // 1 * x + a
          float[] polynomial = new float[n];
          try (FloatArray dx = vulkan.upload(x); FloatArray dy = vulkan.floats(n)) {
            for (int r = 0; r < 500; r++) {
              if (r % 2 == 0) {
                SaxpyKernels.saxpy(vulkan, n, a, dx, dy);
              } else {
                PolynomialKernels.horner(vulkan, n, coefficients, x, polynomial);
              }
            }
            float[] y = dy.toArray();
            for (int i = 0; i < n; i++) {
              if (y[i] != 250 * a || polynomial[i] != 1f + a) {
                throw new AssertionError("thread with a = " + a + " got " + y[i] + " and " + polynomial[i]);
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> future : done) {
        future.get();
      }
    }
  }

  @Test
  void oversizedBufferIsRefusedBeforeAllocation() {
    IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
        () -> vulkan.floats(Integer.MAX_VALUE));
    assertTrue(thrown.getMessage().contains("maxStorageBufferRange"), thrown.getMessage());
  }
}
