package dev.kiln.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What an executor says when Spark gives it a GPU address that names no device Kiln can open. */
class ExecutorDevicesTest {
  @Test
  void anAddressBeyondKilnsGpusNamesTheAddressAndTheSelector() {
    IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> ExecutorDevices.forAddress("97"));
    assertTrue(thrown.getMessage().startsWith("GPU address '97' of this executor: cannot open Kiln device '#97' ("),
        thrown.getMessage());
    assertTrue(thrown.getMessage().endsWith("); set -Dkiln.spark.device=<selector> on the executors where the addresses"
        + " are not Kiln's GPU ranks"), thrown.getMessage());
  }

  @Test
  void anAddressThatIsNoNumberSaysHowToMapIt() {
    IllegalStateException thrown = assertThrows(IllegalStateException.class,
        () -> ExecutorDevices.forAddress("GPU-5d3c"));
    assertEquals("GPU address 'GPU-5d3c' is not a number, so it names no rank of Kiln's GPUs; set"
        + " -Dkiln.spark.device=<selector> on the executors", thrown.getMessage());
  }
}
