package dev.kiln.vulkan;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.NumericType;
import dev.kiln.abi.SplitForm;
import dev.kiln.backend.Launch;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Launch shapes and workgroup memory beyond the device's limits are refused, naming kernel and
 * limit, before any module is read.
 */
class LimitsTest {
  private static KernelSpec spec(int[] workgroup, int scalars) {
    List<KernelSpec.Param> params = new ArrayList<>();
    for (int i = 0; i < scalars; i++) {
      params.add(KernelSpec.Param.scalar("s" + i, NumericType.INT));
    }
    return new KernelSpec(
        MethodHandles.lookup(),
        LimitsTest.class,
        "shape",
        "no-such-module.spv",
        workgroup,
        params,
        args -> {});
  }

  private static String refusal(KernelSpec spec) {
    VulkanBackend backend = TestBackends.open(false);
    try {
      Launch launch = new Launch().start(spec);
      launch.grid(0, 1, 1, 1);
      for (int param = 0; param < spec.params().size(); param++) {
        launch.arg(param, 1);
      }
      return assertThrows(IllegalArgumentException.class, () -> backend.dispatch(launch, false))
          .getMessage();
    } finally {
      backend.close();
    }
  }

  @Test
  void workgroupBeyondTheDevice() {
    String message = refusal(spec(new int[] {1 << 16, 1, 1}, 0));
    assertTrue(
        message.contains("LimitsTest#shape") && message.contains("maxComputeWorkGroupSize[0]"),
        message);
  }

  @Test
  void tooManyInvocations() {
    String message = refusal(spec(new int[] {64, 64, 1}, 0));
    assertTrue(message.contains("maxComputeWorkGroupInvocations"), message);
  }

  @Test
  void tooManyPushConstants() {
    String message = refusal(spec(new int[] {64, 1, 1}, 100));
    assertTrue(message.contains("maxPushConstantsSize"), message);
  }

  /**
   * 1 MiB of workgroup memory, as its description says: beyond lavapipe's 32 KiB and the H200's 48
   * KiB.
   */
  @Test
  void tooMuchWorkgroupMemory() {
    KernelSpec spec = spec(new int[] {64, 1, 1}, 0);
    String message =
        refusal(
            spec.describedBy(
                new KernelDescription(
                    Set.of(),
                    1,
                    true,
                    1 << 20,
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    SplitForm.UNKNOWN)));
    assertTrue(
        message.contains("LimitsTest#shape: 1048576 bytes of workgroup memory exceed")
            && message.contains("maxComputeSharedMemorySize"),
        message);
  }
}
