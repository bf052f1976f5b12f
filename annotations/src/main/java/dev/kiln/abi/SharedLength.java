package dev.kiln.abi;

/**
 * Workgroup arrays whose length an {@code int} parameter of the kernel gives ({@code
 * Gpu.sharedFloats(n)}): a launch sets the module's specialization constant {@code specId} to the
 * parameter's value, and the runtime keeps a pipeline per value.
 *
 * @param param the parameter's index
 * @param specId the specialization constant that holds the length
 * @param bytesPerElement the workgroup memory each unit of the length takes, over all the arrays it
 *     sizes
 */
public record SharedLength(int param, int specId, long bytesPerElement) {
  /** Checks the numbers. */
  public SharedLength {
    if (param < 0 || specId < LaunchAbi.SHARED_LENGTH_SPEC_IDS_FROM || bytesPerElement < 1) {
      throw new IllegalArgumentException(
          "parameter " + param + ", constant " + specId + ", " + bytesPerElement + " bytes");
    }
  }
}
