package dev.kiln.samples.startup;

import dev.kiln.samples.SaxpyKernels;
import dev.kiln.Device;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Run in a fresh JVM by {@link StartupOverlapTest}: opens a Vulkan device on {@code args[0]} threads
 * at once, each running saxpy and checking it, then once more on this thread; prints each result.
 */
public final class WarmupProbe {
  private WarmupProbe() {}

  private static String saxpy() {
    try (Device device = Device.open("vulkan")) {
      float[] y = {1f, 2f, 3f};
      SaxpyKernels.saxpy(device, 3, 2f, new float[] {1f, 1f, 1f}, y);
      return y[0] == 3f && y[1] == 4f && y[2] == 5f ? "saxpy ok" : "saxpy wrong";
    }
  }

  public static void main(String[] args) throws Exception {
    int threads = Integer.parseInt(args[0]);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<String>> results = new ArrayList<>();
    for (int k = 0; k < threads; k++) {
      results.add(pool.submit(() -> {
        start.await();
        return saxpy();
      }));
    }
    start.countDown();
    for (Future<String> result : results) {
      System.out.println(result.get(2, TimeUnit.MINUTES));
    }
    pool.shutdown();
    System.out.println(saxpy());
  }
}
