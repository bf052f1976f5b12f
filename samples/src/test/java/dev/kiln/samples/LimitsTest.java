package dev.kiln.samples;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Kernels beyond the device's limits are refused when their pipeline is built, naming the limit. */
class LimitsTest extends BothDevices {
  @Test
  void tooMuchWorkgroupMemory() {
    IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
        () -> LimitKernelsKernels.hugeShared(vulkan, 10, new float[10]));
    assertTrue(thrown.getMessage().contains("maxComputeSharedMemorySize"), thrown.getMessage());
    assertTrue(thrown.getMessage().contains("LimitKernels#hugeShared"), thrown.getMessage());
  }
}
