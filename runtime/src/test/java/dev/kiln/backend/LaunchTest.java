package dev.kiln.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.abi.KernelSpec;
import java.lang.invoke.MethodHandles;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Global ids are ints: a grid whose whole workgroups reach past Integer.MAX_VALUE is refused. */
class LaunchTest {
  private static final KernelSpec SPEC =
      new KernelSpec(
          MethodHandles.lookup(),
          LaunchTest.class,
          "wide",
          "no-such-module.spv",
          new int[] {256, 4, 1},
          List.of(),
          args -> {});

  @Test
  void theLargestGridWholeWorkgroupsCoverIsTaken() {
    Launch launch = new Launch().start(SPEC);
    int largest = Integer.MAX_VALUE / 256 * 256;
    launch.grid(0, largest, 3, 1);
    assertEquals(largest / 256, launch.workgroups(0));
  }

  @Test
  void aGridPastTheIntIdsIsRefusedNamingKernelAndLimit() {
    Launch launch = new Launch().start(SPEC);
    String message =
        assertThrows(
                IllegalArgumentException.class,
                () -> launch.grid(0, Integer.MAX_VALUE / 256 * 256 + 1, 1, 1))
            .getMessage();
    assertEquals(
        "dev.kiln.backend.LaunchTest#wide: a grid of 2147483393 along axis 0 needs global ids past"
            + " Integer.MAX_VALUE in whole workgroups of 256; launch at most 2147483392",
        message);
    assertThrows(IllegalArgumentException.class, () -> launch.grid(0, 1, Integer.MAX_VALUE, 1));
  }
}
