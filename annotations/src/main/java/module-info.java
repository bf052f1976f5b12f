/**
 * The annotations that mark Kiln kernels: {@link dev.kiln.annotations.Kernel}, {@link
 * dev.kiln.annotations.Buffer} and {@link dev.kiln.annotations.FuseGroup}.
 */
module dev.kiln.annotations {
  exports dev.kiln.annotations;
  // The contract of processor, runtime and generated code: the launch ABI, the kernel specs that
  // launchers make, the twins' fault reports. Generated code in any module uses it; users do not
  // (no compatibility promise, as dev.kiln.internal).
  exports dev.kiln.abi;
}
