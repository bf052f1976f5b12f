package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.backend.Backend;
import dev.kiln.backend.BackendBatch;
import org.junit.jupiter.api.Test;

/**
 * Batches reuse their recorders (command pool and buffer, fence, fault buffer, timestamps):
 * thousands of them, submitted or closed unsubmitted, leave as many recorders and buffers as one.
 * Launches of real kernels are counted the same way in the samples' {@code LaunchResourcesTest}.
 */
class RecorderReuseTest {
  @Test
  void tenThousandBatchesReuseOneRecorder() {
    VulkanBackend backend = TestBackends.open(Boolean.getBoolean("kiln.validation"));
    try {
      try (BackendBatch first = backend.batch()) {
        first.submit();
        first.await();
      }
      Backend.Resources settled = backend.resources();
      for (int i = 0; i < 10_000; i++) {
        try (BackendBatch batch = backend.batch()) {
          if (i % 2 == 0) { // submitted ones, and ones closed unsubmitted
            batch.submit();
            batch.await();
          }
        }
      }
      assertEquals(settled, backend.resources());
    } finally {
      backend
          .close(); // with the validation layer on (the build turns it on), anything not destroyed
      // is reported
    }
  }
}
