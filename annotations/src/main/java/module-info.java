/**
 * The annotations that mark Kiln kernels: {@link dev.kiln.annotations.Kernel},
 * {@link dev.kiln.annotations.Buffer} and {@link dev.kiln.annotations.FuseGroup}.
 */
@SuppressWarnings("module") // the runtime, compiled later, is not on this module's path
module dev.kiln.annotations {
  exports dev.kiln.annotations;
  // the launch ABI the processor writes SPIR-V by and the runtime launches by
  exports dev.kiln.abi to dev.kiln.runtime;
}
