package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.kiln.backend.BackendBatch;
import org.junit.jupiter.api.Test;

/** Batches reuse their command pools, fences and fault buffers: thousands of them leak nothing. */
class BatchResourcesTest {
  @Test
  void tenThousandBatchesReuseOneSetOfResources() {
    VulkanBackend backend = TestBackends.open(true);
    try {
      try (BackendBatch first = backend.batch()) {
        first.submit().join();
      }
      int[] settled = backend.resourceCounts();
      for (int i = 0; i < 10_000; i++) {
        try (BackendBatch batch = backend.batch()) {
          if (i % 2 == 0) {
            batch.submit().join(); // submitted ones, and ones closed unsubmitted
          }
        }
      }
      assertArrayEquals(settled, backend.resourceCounts(), "idle batch resources and open buffers");
    } finally {
      backend.close(); // with the validation layer on, anything not destroyed would be reported
    }
  }
}
