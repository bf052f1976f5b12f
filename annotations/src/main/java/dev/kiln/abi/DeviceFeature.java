package dev.kiln.abi;

import java.util.List;

/**
 * What a kernel may need of a device beyond Vulkan 1.1's core compute, one row per feature: the
 * SPIR-V capabilities and extensions a module declares for it, the Vulkan extensions and feature
 * fields (or properties) a device offers it by, and what a kernel that needs it does, in the words
 * of the refusal a device without it gives. The processor declares a feature's capabilities and
 * extensions through its row and lists the feature in the kernel's {@link KernelDescription}; the
 * Vulkan backend refuses a kernel whose features its device lacks, with the row's words, and
 * enables the rows' extensions its device has. Adding a feature is a row here, its code in the
 * writer and the CPU twins, and how a device answers for it in the Vulkan backend's feature query.
 */
public enum DeviceFeature {
  /** 64-bit floats. */
  FLOAT64(
      spirv(Capability.FLOAT64),
      List.of(),
      List.of(),
      "shaderFloat64",
      "uses double values, or float division, which Kiln computes in double for Java's correctly rounded result"),
  /** 64-bit integers. */
  INT64(spirv(Capability.INT64), List.of(), List.of(), "shaderInt64", "computes with long values"),
  /** Buffers of 8-bit elements. */
  STORAGE_8BIT(
      spirv(Capability.STORAGE_BUFFER_8BIT_ACCESS),
      List.of("SPV_KHR_8bit_storage"),
      List.of("VK_KHR_8bit_storage"),
      "storageBuffer8BitAccess",
      "has a byte[] or boolean[] buffer"),
  /** Buffers of 16-bit elements. */
  STORAGE_16BIT(
      spirv(Capability.STORAGE_BUFFER_16BIT_ACCESS),
      List.of(),
      List.of(),
      "storageBuffer16BitAccess",
      "has a short[] or char[] buffer"),
  /** Workgroup memory of 16-bit values, read as float16 bits. */
  PACKED_SHORTS(
      spirv(Capability.INT16, Capability.FLOAT16),
      List.of(),
      List.of("VK_KHR_shader_float16_int8"),
      "shaderInt16 and shaderFloat16",
      "holds 16-bit values in workgroup memory (Gpu.sharedPackedShorts, as float16 bits)"),
  /**
   * Java's signed zeros, infinities, NaNs and subnormals for floats (subnormals where the driver
   * offers them).
   */
  JAVA_FLOATS(
      spirv(Capability.SIGNED_ZERO_INF_NAN_PRESERVE, Capability.DENORM_PRESERVE),
      List.of("SPV_KHR_float_controls"),
      List.of("VK_KHR_shader_float_controls"),
      "shaderSignedZeroInfNanPreserveFloat32",
      "computes with floats, whose signed zeros, infinities and NaNs Kiln keeps as Java does"),
  /** Java's signed zeros, infinities and NaNs for doubles: the same execution modes at width 64. */
  JAVA_DOUBLES(
      spirv(),
      List.of(),
      List.of("VK_KHR_shader_float_controls"),
      "shaderSignedZeroInfNanPreserveFloat64",
      "computes with doubles, whose signed zeros, infinities and NaNs Kiln keeps as Java does"),
  /** Subgroup built-ins and elections. */
  SUBGROUPS(
      spirv(Capability.GROUP_NON_UNIFORM),
      List.of(),
      List.of(),
      "VK_SUBGROUP_FEATURE_BASIC_BIT in supportedOperations",
      "uses basic subgroup operations"),
  /** Subgroup votes. */
  SUBGROUP_VOTES(
      spirv(Capability.GROUP_NON_UNIFORM_VOTE),
      List.of(),
      List.of(),
      "VK_SUBGROUP_FEATURE_VOTE_BIT in supportedOperations",
      "uses subgroup votes (any, all)"),
  /** Subgroup reductions and scans. */
  SUBGROUP_ARITHMETIC(
      spirv(Capability.GROUP_NON_UNIFORM_ARITHMETIC),
      List.of(),
      List.of(),
      "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT in supportedOperations",
      "uses subgroup arithmetic (add, min, max)"),
  /** Subgroup ballots and broadcasts. */
  SUBGROUP_BALLOTS(
      spirv(Capability.GROUP_NON_UNIFORM_BALLOT),
      List.of(),
      List.of(),
      "VK_SUBGROUP_FEATURE_BALLOT_BIT in supportedOperations",
      "uses subgroup ballots and broadcasts"),
  /** Subgroup shuffles by lane and xor. */
  SUBGROUP_SHUFFLES(
      spirv(Capability.GROUP_NON_UNIFORM_SHUFFLE),
      List.of(),
      List.of(),
      "VK_SUBGROUP_FEATURE_SHUFFLE_BIT in supportedOperations",
      "uses subgroup shuffles (by lane, xor)"),
  /** Subgroup shuffles up and down. */
  SUBGROUP_RELATIVE_SHUFFLES(
      spirv(Capability.GROUP_NON_UNIFORM_SHUFFLE_RELATIVE),
      List.of(),
      List.of(),
      "VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT in supportedOperations",
      "uses relative subgroup shuffles (up, down)"),
  /** Clustered subgroup reductions. */
  SUBGROUP_CLUSTERS(
      spirv(Capability.GROUP_NON_UNIFORM_CLUSTERED),
      List.of(),
      List.of(),
      "VK_SUBGROUP_FEATURE_CLUSTERED_BIT in supportedOperations",
      "uses clustered subgroup reductions"),
  /** Subgroup partitions by value. */
  SUBGROUP_PARTITIONS(
      spirv(Capability.GROUP_NON_UNIFORM_PARTITIONED_NV),
      List.of("SPV_NV_shader_subgroup_partitioned"),
      List.of("VK_NV_shader_subgroup_partitioned"),
      "VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV in supportedOperations",
      "uses partitioned subgroup operations"),
  /** Subgroup operations on 64-bit values. */
  SUBGROUP_LONGS(
      spirv(),
      List.of(),
      List.of("VK_KHR_shader_subgroup_extended_types"),
      "shaderSubgroupExtendedTypes",
      "applies a subgroup operation to longs"),
  /** Atomic updates of long buffer elements. */
  LONG_ATOMICS_ON_BUFFERS(
      spirv(Capability.INT64_ATOMICS),
      List.of(),
      List.of("VK_KHR_shader_atomic_int64"),
      "shaderBufferInt64Atomics",
      "updates a long[] buffer atomically"),
  /** Atomic updates of long workgroup array elements. */
  LONG_ATOMICS_ON_WORKGROUP(
      spirv(Capability.INT64_ATOMICS),
      List.of(),
      List.of("VK_KHR_shader_atomic_int64"),
      "shaderSharedInt64Atomics",
      "updates a Gpu.sharedLongs array atomically"),
  /** Atomic float adds to buffer elements. */
  FLOAT_ADDS_ON_BUFFERS(
      spirv(Capability.ATOMIC_FLOAT32_ADD),
      List.of("SPV_EXT_shader_atomic_float_add"),
      List.of("VK_EXT_shader_atomic_float"),
      "shaderBufferFloat32AtomicAdd",
      "adds to a float[] buffer atomically"),
  /** Atomic float adds to workgroup array elements. */
  FLOAT_ADDS_ON_WORKGROUP(
      spirv(Capability.ATOMIC_FLOAT32_ADD),
      List.of("SPV_EXT_shader_atomic_float_add"),
      List.of("VK_EXT_shader_atomic_float"),
      "shaderSharedFloat32AtomicAdd",
      "adds to a Gpu.sharedFloats array atomically"),
  /** Cooperative matrices of subgroup scope. */
  COOPERATIVE_MATRICES(
      spirv(Capability.COOPERATIVE_MATRIX),
      List.of("SPV_KHR_cooperative_matrix"),
      List.of("VK_KHR_cooperative_matrix"),
      "cooperativeMatrix",
      "uses cooperative matrices"),
  /** 16 x 16 x 16 products of float16 matrices into floats. */
  FLOAT16_MATRICES(
      spirv(Capability.FLOAT16),
      List.of(),
      List.of("VK_KHR_shader_float16_int8"),
      "shaderFloat16 and the 16 x 16 x 16 float16 shape in vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR",
      "multiplies 16 x 16 x 16 cooperative matrices of float16 into floats"),
  /** 16 x 16 x 16 products of bfloat16 matrices into floats. */
  BFLOAT16_MATRICES(
      spirv(Capability.BFLOAT16_TYPE, Capability.BFLOAT16_COOPERATIVE_MATRIX),
      List.of("SPV_KHR_bfloat16"),
      List.of("VK_KHR_shader_bfloat16"),
      "shaderBFloat16Type, shaderBFloat16CooperativeMatrix and the 16 x 16 x 16 bfloat16 shape in"
          + " vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR",
      "multiplies 16 x 16 x 16 cooperative matrices of bfloat16 into floats"),
  /** The Vulkan memory model, device scope included (the fault record's atomics). */
  VULKAN_MEMORY_MODEL(
      spirv(Capability.VULKAN_MEMORY_MODEL, Capability.VULKAN_MEMORY_MODEL_DEVICE_SCOPE),
      List.of("SPV_KHR_vulkan_memory_model"),
      List.of("VK_KHR_vulkan_memory_model"),
      "vulkanMemoryModel and vulkanMemoryModelDeviceScope",
      "is written for the Vulkan memory model"),
  /**
   * Cooperative matrices of workgroup scope loaded through tensor layouts (hand-written GLSL only,
   * so far).
   */
  TENSOR_LAYOUTS(
      spirv(Capability.COOPERATIVE_MATRIX_TENSOR_ADDRESSING_NV, Capability.TENSOR_ADDRESSING_NV),
      List.of("SPV_NV_cooperative_matrix2", "SPV_NV_tensor_addressing"),
      List.of("VK_NV_cooperative_matrix2"),
      "cooperativeMatrixWorkgroupScope, cooperativeMatrixFlexibleDimensions and cooperativeMatrixTensorAddressing",
      "loads or stores cooperative matrices through tensor layouts");

  /**
   * The SPIR-V capabilities the rows name, by their numbers in the SPIR-V specification (this
   * module depends on nothing that defines them; a processor test ties each to its name).
   */
  public static final class Capability {
    private Capability() {}

    /** Float16. */
    public static final int FLOAT16 = 9;

    /** Float64. */
    public static final int FLOAT64 = 10;

    /** Int64. */
    public static final int INT64 = 11;

    /** Int64Atomics. */
    public static final int INT64_ATOMICS = 12;

    /** Int16. */
    public static final int INT16 = 22;

    /** GroupNonUniform. */
    public static final int GROUP_NON_UNIFORM = 61;

    /** GroupNonUniformVote. */
    public static final int GROUP_NON_UNIFORM_VOTE = 62;

    /** GroupNonUniformArithmetic. */
    public static final int GROUP_NON_UNIFORM_ARITHMETIC = 63;

    /** GroupNonUniformBallot. */
    public static final int GROUP_NON_UNIFORM_BALLOT = 64;

    /** GroupNonUniformShuffle. */
    public static final int GROUP_NON_UNIFORM_SHUFFLE = 65;

    /** GroupNonUniformShuffleRelative. */
    public static final int GROUP_NON_UNIFORM_SHUFFLE_RELATIVE = 66;

    /** GroupNonUniformClustered. */
    public static final int GROUP_NON_UNIFORM_CLUSTERED = 67;

    /** StorageBuffer16BitAccess. */
    public static final int STORAGE_BUFFER_16BIT_ACCESS = 4433;

    /** StorageBuffer8BitAccess. */
    public static final int STORAGE_BUFFER_8BIT_ACCESS = 4448;

    /** DenormPreserve. */
    public static final int DENORM_PRESERVE = 4464;

    /** SignedZeroInfNanPreserve. */
    public static final int SIGNED_ZERO_INF_NAN_PRESERVE = 4466;

    /** BFloat16TypeKHR. */
    public static final int BFLOAT16_TYPE = 5116;

    /** BFloat16CooperativeMatrixKHR. */
    public static final int BFLOAT16_COOPERATIVE_MATRIX = 5118;

    /** GroupNonUniformPartitionedNV. */
    public static final int GROUP_NON_UNIFORM_PARTITIONED_NV = 5297;

    /** VulkanMemoryModel. */
    public static final int VULKAN_MEMORY_MODEL = 5345;

    /** VulkanMemoryModelDeviceScope. */
    public static final int VULKAN_MEMORY_MODEL_DEVICE_SCOPE = 5346;

    /** CooperativeMatrixTensorAddressingNV. */
    public static final int COOPERATIVE_MATRIX_TENSOR_ADDRESSING_NV = 5433;

    /** TensorAddressingNV. */
    public static final int TENSOR_ADDRESSING_NV = 5439;

    /** CooperativeMatrixKHR. */
    public static final int COOPERATIVE_MATRIX = 6022;

    /** AtomicFloat32AddEXT. */
    public static final int ATOMIC_FLOAT32_ADD = 6033;
  }

  private final List<Integer> capabilities;
  private final List<String> spirvExtensions;
  private final List<String> vulkanExtensions;
  private final String vulkanFeatures;
  private final String use;

  DeviceFeature(
      List<Integer> capabilities,
      List<String> spirvExtensions,
      List<String> vulkanExtensions,
      String vulkanFeatures,
      String use) {
    this.capabilities = capabilities;
    this.spirvExtensions = spirvExtensions;
    this.vulkanExtensions = vulkanExtensions;
    this.vulkanFeatures = vulkanFeatures;
    this.use = use;
  }

  private static List<Integer> spirv(Integer... capabilities) {
    return List.of(capabilities);
  }

  /**
   * The SPIR-V capabilities a module declares for the feature, in the order it declares them.
   *
   * @return the capabilities' numbers
   */
  public List<Integer> capabilities() {
    return capabilities;
  }

  /**
   * The SPIR-V extensions a module declares for the feature.
   *
   * @return their names
   */
  public List<String> spirvExtensions() {
    return spirvExtensions;
  }

  /**
   * The Vulkan device extensions that offer the feature; none where Vulkan 1.1's core does.
   *
   * @return their names
   */
  public List<String> vulkanExtensions() {
    return vulkanExtensions;
  }

  /**
   * Why a device without the feature cannot run a kernel that needs it: {@code <kernel> <use>,
   * which needs <fields> (<extensions>); <device> lacks it}.
   *
   * @param kernel the kernel, as its spec names itself
   * @param device the device's name
   * @return the message
   */
  public String refusal(Object kernel, String device) {
    String extensions =
        vulkanExtensions.isEmpty() ? "" : " (" + String.join(", ", vulkanExtensions) + ")";
    return kernel
        + " "
        + use
        + ", which needs "
        + vulkanFeatures
        + extensions
        + "; "
        + device
        + " lacks it";
  }
}
