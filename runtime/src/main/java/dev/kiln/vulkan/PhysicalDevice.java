package dev.kiln.vulkan;

import static org.lwjgl.util.spvc.Spv.*;
import static org.lwjgl.vulkan.KHRCooperativeMatrix.*;
import static org.lwjgl.vulkan.KHRShaderBfloat16.VK_COMPONENT_TYPE_BFLOAT16_KHR;
import static org.lwjgl.vulkan.NVShaderSubgroupPartitioned.VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceFeatures2;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_BALLOT_BIT;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_BASIC_BIT;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_CLUSTERED_BIT;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT;
import static org.lwjgl.vulkan.VK11.VK_SUBGROUP_FEATURE_VOTE_BIT;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceProperties2;

import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.LaunchAbi;
import dev.kiln.backend.KernelModule;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBaseOutStructure;
import org.lwjgl.vulkan.VkCooperativeMatrixPropertiesKHR;
import org.lwjgl.vulkan.VkExtensionProperties;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkPhysicalDevice16BitStorageFeatures;
import org.lwjgl.vulkan.VkPhysicalDevice8BitStorageFeatures;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceCooperativeMatrix2FeaturesNV;
import org.lwjgl.vulkan.VkPhysicalDeviceCooperativeMatrixFeaturesKHR;
import org.lwjgl.vulkan.VkPhysicalDeviceFeatures2;
import org.lwjgl.vulkan.VkPhysicalDeviceShaderBfloat16FeaturesKHR;
import org.lwjgl.vulkan.VkPhysicalDeviceShaderFloat16Int8Features;
import org.lwjgl.vulkan.VkPhysicalDeviceVulkanMemoryModelFeatures;
import org.lwjgl.vulkan.VkPhysicalDeviceFeatures;
import org.lwjgl.vulkan.VkPhysicalDeviceFloatControlsProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceLimits;
import org.lwjgl.vulkan.VkPhysicalDeviceMemoryProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties2;
import org.lwjgl.vulkan.VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures;
import org.lwjgl.vulkan.VkPhysicalDeviceSubgroupProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceShaderAtomicFloatFeaturesEXT;
import org.lwjgl.vulkan.VkPhysicalDeviceShaderAtomicInt64Features;
import org.lwjgl.vulkan.VkQueueFamilyProperties;

/** A Vulkan device that has a compute queue, with what Kiln needs to know about it. */
record PhysicalDevice(VkPhysicalDevice handle, String name, int type, int queueFamily, int timestampBits,
    float timestampPeriod, long largestHeap, int apiVersion,
    int driverVersion, int vendorId, int deviceId, byte[] pipelineCacheUuid, Limits limits, boolean float64,
    boolean int64, FloatControls floatControls, boolean pushDescriptors, boolean memoryBudget, Features features) {
  static final String FLOAT_CONTROLS = "VK_KHR_shader_float_controls";
  static final String ATOMIC_INT64 = "VK_KHR_shader_atomic_int64";
  static final String ATOMIC_FLOAT = "VK_EXT_shader_atomic_float";
  static final String STORAGE_8BIT = "VK_KHR_8bit_storage";
  static final String COOPERATIVE_MATRIX = "VK_KHR_cooperative_matrix";
  static final String FLOAT16 = "VK_KHR_shader_float16_int8";
  static final String MEMORY_MODEL = "VK_KHR_vulkan_memory_model";
  static final String BFLOAT16 = "VK_KHR_shader_bfloat16";
  static final String COOPERATIVE_MATRIX_2 = "VK_NV_cooperative_matrix2";
  static final String PUSH_DESCRIPTOR = "VK_KHR_push_descriptor";
  static final String SUBGROUP_EXTENDED_TYPES = "VK_KHR_shader_subgroup_extended_types";
  static final String SUBGROUP_PARTITIONED = "VK_NV_shader_subgroup_partitioned";
  /** What the driver allows a process to allocate from each heap, for {@code Device.memory()}. */
  static final String MEMORY_BUDGET = "VK_EXT_memory_budget";
  /** Descriptors a push descriptor set holds at least on every device that has the extension. */
  static final int MIN_MAX_PUSH_DESCRIPTORS = 32;

  /**
   * Whether the driver ends loops early and silently: Mesa's lavapipe (llvmpipe) stops an
   * invocation's loops after 65,535 header entries in all (docs/DRIVER-GAPS.md). Its pipelines turn
   * on the modules' loop counting, which faults past {@code LaunchAbi.LOOP_TURN_LIMIT}.
   */
  boolean cutsLoops() {
    return name.contains("llvmpipe");
  }

  /**
   * The limits that matter for compute, and Vulkan 1.1's subgroup properties: the size, and the
   * operations compute shaders have ({@code VK_SUBGROUP_FEATURE_*} bits; 0 where the compute stage
   * has none).
   */
  record Limits(int[] maxWorkgroupSize, int maxWorkgroupInvocations, int[] maxGroupCount, long maxStorageBufferRange,
      int maxPushConstantsSize, int maxSharedMemorySize, int subgroupSize, int subgroupOperations) {
    static Limits of(VkPhysicalDeviceLimits limits, VkPhysicalDeviceSubgroupProperties subgroups) {
      return new Limits(toArray(limits.maxComputeWorkGroupSize()), limits.maxComputeWorkGroupInvocations(),
          toArray(limits.maxComputeWorkGroupCount()), Integer.toUnsignedLong(limits.maxStorageBufferRange()),
          limits.maxPushConstantsSize(), limits.maxComputeSharedMemorySize(), subgroups.subgroupSize(),
          (subgroups.supportedStages() & VK_SHADER_STAGE_COMPUTE_BIT) != 0 ? subgroups.supportedOperations() : 0);
    }
  }

  /** The subgroup capabilities of SPIR-V, each with the {@code VK_SUBGROUP_FEATURE_*} bit and words a refusal names. */
  private static final Map<Integer, Map.Entry<Integer, String>> SUBGROUP_OPERATIONS = Map.of(
      SpvCapabilityGroupNonUniform, Map.entry(VK_SUBGROUP_FEATURE_BASIC_BIT, "basic subgroup operations"),
      SpvCapabilityGroupNonUniformVote, Map.entry(VK_SUBGROUP_FEATURE_VOTE_BIT, "subgroup votes (any, all)"),
      SpvCapabilityGroupNonUniformArithmetic, Map.entry(VK_SUBGROUP_FEATURE_ARITHMETIC_BIT,
          "subgroup arithmetic (add, min, max)"),
      SpvCapabilityGroupNonUniformBallot, Map.entry(VK_SUBGROUP_FEATURE_BALLOT_BIT, "subgroup ballots and broadcasts"),
      SpvCapabilityGroupNonUniformShuffle, Map.entry(VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "subgroup shuffles (by lane, xor)"),
      SpvCapabilityGroupNonUniformShuffleRelative, Map.entry(VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT,
          "relative subgroup shuffles (up, down)"),
      SpvCapabilityGroupNonUniformClustered, Map.entry(VK_SUBGROUP_FEATURE_CLUSTERED_BIT,
          "clustered subgroup reductions"),
      SpvCapabilityGroupNonUniformPartitionedNV, Map.entry(VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV,
          "partitioned subgroup operations (" + SUBGROUP_PARTITIONED + ")"));

  /**
   * Support for VK_KHR_shader_float_controls' SignedZeroInfNanPreserve and DenormPreserve, 32- and
   * 64-bit, which Java-exact kernels declare.
   */
  record FloatControls(boolean extension, boolean preserve32, boolean preserve64, boolean denorms32,
      boolean denorms64) {}

  /**
   * The optional shader features Kiln enables where the device has them: 64-bit integer atomics on
   * buffers and on workgroup memory (VK_KHR_shader_atomic_int64), float atomic add on buffers and on workgroup memory
   * (VK_EXT_shader_atomic_float), 8- and 16-bit buffer elements (VK_KHR_8bit_storage, and
   * Vulkan 1.1's 16-bit storage) for byte, boolean, short and char arrays, and subgroup operations
   * on longs (Vulkan 1.2's shaderSubgroupExtendedTypes), float16 and bfloat16 cooperative matrices
   * of subgroup scope, the Vulkan memory model, and matrices of workgroup scope loaded through
   * tensor layouts ({@code workgroupMatrices}: VK_NV_cooperative_matrix2's workgroup scope, flexible
   * dimensions and tensor addressing, which only the benchmarks' GLSL twins use so far).
   */
  record Features(boolean int64AtomicsOnBuffers, boolean int64AtomicsOnWorkgroup, boolean floatAddOnBuffers,
      boolean floatAddOnWorkgroup, boolean storage8, boolean storage16, boolean subgroupExtendedTypes,
      boolean float16, boolean cooperativeMatrix, boolean matrix16x16x16, boolean vulkanMemoryModel, boolean int16,
      boolean bfloat16Matrix16x16x16, boolean workgroupMatrices) {
    static Features of(MemoryStack stack, VkPhysicalDevice device, List<String> extensions) {
      VkPhysicalDevice16BitStorageFeatures bits16 = VkPhysicalDevice16BitStorageFeatures.calloc(stack).sType$Default();
      VkPhysicalDeviceFeatures2 features = VkPhysicalDeviceFeatures2.calloc(stack).sType$Default().pNext(bits16);
      var subgroupTypes = chainIf(extensions.contains(SUBGROUP_EXTENDED_TYPES), features,
          VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures.calloc(stack).sType$Default());
      var int64 = chainIf(extensions.contains(ATOMIC_INT64), features,
          VkPhysicalDeviceShaderAtomicInt64Features.calloc(stack).sType$Default());
      var floats = chainIf(extensions.contains(ATOMIC_FLOAT), features,
          VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.calloc(stack).sType$Default());
      var bits8 = chainIf(extensions.contains(STORAGE_8BIT), features,
          VkPhysicalDevice8BitStorageFeatures.calloc(stack).sType$Default());
      var halves = chainIf(extensions.contains(FLOAT16), features,
          VkPhysicalDeviceShaderFloat16Int8Features.calloc(stack).sType$Default());
      var matrices = chainIf(extensions.contains(COOPERATIVE_MATRIX), features,
          VkPhysicalDeviceCooperativeMatrixFeaturesKHR.calloc(stack).sType$Default());
      var memoryModel = chainIf(extensions.contains(MEMORY_MODEL), features,
          VkPhysicalDeviceVulkanMemoryModelFeatures.calloc(stack).sType$Default());
      var bfloats = chainIf(extensions.contains(BFLOAT16), features,
          VkPhysicalDeviceShaderBfloat16FeaturesKHR.calloc(stack).sType$Default());
      var matrices2 = chainIf(extensions.contains(COOPERATIVE_MATRIX_2), features,
          VkPhysicalDeviceCooperativeMatrix2FeaturesNV.calloc(stack).sType$Default());
      vkGetPhysicalDeviceFeatures2(device, features);
      return new Features(int64.shaderBufferInt64Atomics(), int64.shaderSharedInt64Atomics(), floats.shaderBufferFloat32AtomicAdd(),
          floats.shaderSharedFloat32AtomicAdd(), bits8.storageBuffer8BitAccess(), bits16.storageBuffer16BitAccess(),
          subgroupTypes.shaderSubgroupExtendedTypes(), halves.shaderFloat16(), matrices.cooperativeMatrix(),
          matrices.cooperativeMatrix() && offersMatrix16x16x16(stack, device, VK_COMPONENT_TYPE_FLOAT16_KHR),
          // with the model enabled, Device scope (every Kiln module's fault record) needs its own feature
          memoryModel.vulkanMemoryModel() && memoryModel.vulkanMemoryModelDeviceScope(), features.features().shaderInt16(),
          matrices.cooperativeMatrix() && bfloats.shaderBFloat16Type() && bfloats.shaderBFloat16CooperativeMatrix()
              && offersMatrix16x16x16(stack, device, VK_COMPONENT_TYPE_BFLOAT16_KHR),
          matrices.cooperativeMatrix() && matrices2.cooperativeMatrixWorkgroupScope()
              && matrices2.cooperativeMatrixFlexibleDimensions() && matrices2.cooperativeMatrixTensorAddressing());
    }

    /**
     * Puts the feature structure {@code struct} at the head of {@code features}' chain, where the
     * device has its extension (every such structure starts with sType and pNext), and returns it:
     * its fields read false where it was not chained.
     */
    private static <T extends org.lwjgl.system.Struct<T>> T chainIf(boolean present, VkPhysicalDeviceFeatures2 features,
        T struct) {
      if (present) {
        org.lwjgl.system.MemoryUtil.memPutAddress(struct.address() + VkBaseOutStructure.PNEXT, features.pNext());
        features.pNext(struct.address());
      }
      return struct;
    }

    /**
     * Whether the driver lists the shape Kiln's matrices have: 16 x 16 x 16 of subgroup scope, A and
     * B of {@code component} (float16 or bfloat16), float accumulator and result.
     */
    private static boolean offersMatrix16x16x16(MemoryStack stack, VkPhysicalDevice device, int component) {
      java.nio.IntBuffer count = stack.mallocInt(1);
      vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(device, count, null);
      try (MemoryStack frame = MemoryStack.stackPush()) {
        VkCooperativeMatrixPropertiesKHR.Buffer shapes = VkCooperativeMatrixPropertiesKHR.calloc(count.get(0), frame);
        shapes.forEach(shape -> shape.sType$Default());
        vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(device, count, shapes);
        for (VkCooperativeMatrixPropertiesKHR shape : shapes) {
          if (shape.MSize() == 16 && shape.NSize() == 16 && shape.KSize() == 16
              && shape.AType() == component && shape.BType() == component
              && shape.CType() == VK_COMPONENT_TYPE_FLOAT32_KHR && shape.ResultType() == VK_COMPONENT_TYPE_FLOAT32_KHR
              && shape.scope() == VK_SCOPE_SUBGROUP_KHR) {
            return true;
          }
        }
      }
      return false;
    }
  }

  /**
   * Whether the device is Vulkan in software on the CPU (lavapipe, SwiftShader): about 25 times
   * slower than plain Java, so the best device is the CPU backend rather than it.
   */
  boolean isSoftware() {
    return type == VK_PHYSICAL_DEVICE_TYPE_CPU;
  }

  /** Discrete GPUs first, then integrated, virtual, software (CPU) and other devices. */
  static final Comparator<PhysicalDevice> PREFERENCE = Comparator.comparingInt(device -> switch (device.type()) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU -> 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU -> 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU -> 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU -> 3;
    default -> 4;
  });

  static List<PhysicalDevice> enumerate(VkInstance instance) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      IntBuffer count = stack.mallocInt(1);
      Vk.check(vkEnumeratePhysicalDevices(instance, count, null), "vkEnumeratePhysicalDevices");
      PointerBuffer handles = stack.mallocPointer(count.get(0));
      Vk.check(vkEnumeratePhysicalDevices(instance, count, handles), "vkEnumeratePhysicalDevices");
      List<PhysicalDevice> devices = new ArrayList<>();
      for (int i = 0; i < handles.capacity(); i++) {
        describe(new VkPhysicalDevice(handles.get(i), instance)).ifPresent(devices::add);
      }
      return devices;
    }
  }

  /**
   * The device, or empty where it has no compute queue. One stack frame per device, and the
   * extension list on the heap: a driver lists hundreds (NVIDIA's about 200, 260 bytes each), more
   * than LWJGL's 64 KiB thread stack holds beside its callers' frames.
   */
  private static Optional<PhysicalDevice> describe(VkPhysicalDevice handle) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      int family = computeQueueFamily(stack, handle);
      if (family < 0) {
        return Optional.empty();
      }
      int timestampBits = timestampBits(stack, handle, family);
      VkPhysicalDeviceProperties properties = VkPhysicalDeviceProperties.calloc(stack);
      vkGetPhysicalDeviceProperties(handle, properties);
      VkPhysicalDeviceLimits limits = properties.limits();
      VkPhysicalDeviceFeatures features = VkPhysicalDeviceFeatures.calloc(stack);
      vkGetPhysicalDeviceFeatures(handle, features);
      List<String> extensions = extensions(stack, handle);
      return Optional.of(new PhysicalDevice(handle, properties.deviceNameString(), properties.deviceType(), family,
          limits.timestampComputeAndGraphics() ? timestampBits : 0, limits.timestampPeriod(), largestHeap(stack, handle),
          properties.apiVersion(), properties.driverVersion(), properties.vendorID(), properties.deviceID(),
          uuid(properties.pipelineCacheUUID()), Limits.of(limits, subgroups(stack, handle)), features.shaderFloat64(),
          features.shaderInt64(), floatControls(stack, handle, extensions), extensions.contains(PUSH_DESCRIPTOR),
          extensions.contains(MEMORY_BUDGET), Features.of(stack, handle, extensions)));
    }
  }

  /** Throws if the launch needs more workgroups along y or z than the device takes (x is split). */
  void checkGroupCounts(KernelSpec spec, int groupsY, int groupsZ) {
    checkGroupCount(spec, 1, groupsY);
    checkGroupCount(spec, 2, groupsZ);
  }

  private void checkGroupCount(KernelSpec spec, int axis, int groups) {
    if (Integer.compareUnsigned(groups, limits.maxGroupCount()[axis]) > 0) {
      throw new IllegalArgumentException(spec + ": " + groups + " workgroups along axis " + axis + " exceed "
          + name + "'s limit maxComputeWorkGroupCount[" + axis + "] = "
          + Integer.toUnsignedString(limits.maxGroupCount()[axis]));
    }
  }

  private static List<String> extensions(MemoryStack stack, VkPhysicalDevice device) {
    IntBuffer count = stack.mallocInt(1);
    Vk.check(vkEnumerateDeviceExtensionProperties(device, (String) null, count, null), "vkEnumerateDeviceExtensionProperties");
    VkExtensionProperties.Buffer extensions = VkExtensionProperties.malloc(count.get(0));
    try {
      Vk.check(vkEnumerateDeviceExtensionProperties(device, (String) null, count, extensions), "vkEnumerateDeviceExtensionProperties");
      return extensions.stream().limit(count.get(0)).map(VkExtensionProperties::extensionNameString).toList();
    } finally {
      extensions.free();
    }
  }

  private static FloatControls floatControls(MemoryStack stack, VkPhysicalDevice device, List<String> extensions) {
    if (!extensions.contains(FLOAT_CONTROLS)) {
      return new FloatControls(false, false, false, false, false);
    }
    VkPhysicalDeviceFloatControlsProperties controls = VkPhysicalDeviceFloatControlsProperties.calloc(stack).sType$Default();
    vkGetPhysicalDeviceProperties2(device, VkPhysicalDeviceProperties2.calloc(stack).sType$Default().pNext(controls));
    return new FloatControls(true, controls.shaderSignedZeroInfNanPreserveFloat32(),
        controls.shaderSignedZeroInfNanPreserveFloat64(), controls.shaderDenormPreserveFloat32(),
        controls.shaderDenormPreserveFloat64());
  }

  private static VkPhysicalDeviceSubgroupProperties subgroups(MemoryStack stack, VkPhysicalDevice device) {
    VkPhysicalDeviceSubgroupProperties subgroups = VkPhysicalDeviceSubgroupProperties.calloc(stack).sType$Default();
    vkGetPhysicalDeviceProperties2(device, VkPhysicalDeviceProperties2.calloc(stack).sType$Default().pNext(subgroups));
    return subgroups;
  }

  private static byte[] uuid(ByteBuffer buffer) {
    byte[] uuid = new byte[buffer.remaining()];
    buffer.get(buffer.position(), uuid);
    return uuid;
  }

  private static int[] toArray(IntBuffer buffer) {
    return new int[] {buffer.get(0), buffer.get(1), buffer.get(2)};
  }

  private static long largestHeap(MemoryStack stack, VkPhysicalDevice device) {
    VkPhysicalDeviceMemoryProperties memory = VkPhysicalDeviceMemoryProperties.calloc(stack);
    vkGetPhysicalDeviceMemoryProperties(device, memory);
    long largest = 0;
    for (int i = 0; i < memory.memoryHeapCount(); i++) {
      largest = Math.max(largest, memory.memoryHeaps(i).size());
    }
    return largest;
  }

  private static int timestampBits(MemoryStack stack, VkPhysicalDevice device, int family) {
    IntBuffer count = stack.mallocInt(1);
    vkGetPhysicalDeviceQueueFamilyProperties(device, count, null);
    VkQueueFamilyProperties.Buffer families = VkQueueFamilyProperties.malloc(count.get(0), stack);
    vkGetPhysicalDeviceQueueFamilyProperties(device, count, families);
    return families.get(family).timestampValidBits();
  }

  private static int computeQueueFamily(MemoryStack stack, VkPhysicalDevice device) {
    IntBuffer count = stack.mallocInt(1);
    vkGetPhysicalDeviceQueueFamilyProperties(device, count, null);
    VkQueueFamilyProperties.Buffer families = VkQueueFamilyProperties.malloc(count.get(0), stack);
    vkGetPhysicalDeviceQueueFamilyProperties(device, count, families);
    for (int i = 0; i < families.capacity(); i++) {
      if ((families.get(i).queueFlags() & VK_QUEUE_COMPUTE_BIT) != 0) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The device for a listing: its name, kind, Vulkan and driver versions on the first line ({@code
   * marker} after them), then what matters for compute, a few facts to each indented line.
   */
  String describe(String marker) {
    String kind = switch (type) {
      case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU -> "discrete GPU";
      case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU -> "integrated GPU";
      case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU -> "virtual GPU";
      case VK_PHYSICAL_DEVICE_TYPE_CPU -> "CPU (software)";
      default -> "other";
    };
    return String.format("%s: %s, Vulkan %d.%d.%d, driver 0x%08x%s%n"
            + "    workgroups: up to %d x %d x %d, %d invocations; %s x %s x %s of them; %d bytes of shared memory%n"
            + "    buffers up to %d bytes; %d bytes of push constants; 8-bit elements %s, 16-bit %s%n"
            + "    64-bit ints %s, floats %s; signed zero, Inf and NaN preserved %s; subnormals preserved: float %s,"
            + " double %s%n"
            + "    atomics: long on buffers %s, on workgroup memory %s, float add on buffers %s, on workgroup memory %s",
        name, kind, VK_API_VERSION_MAJOR(apiVersion), VK_API_VERSION_MINOR(apiVersion), VK_API_VERSION_PATCH(apiVersion),
        driverVersion, marker, limits.maxWorkgroupSize()[0], limits.maxWorkgroupSize()[1], limits.maxWorkgroupSize()[2],
        limits.maxWorkgroupInvocations(), Integer.toUnsignedString(limits.maxGroupCount()[0]),
        Integer.toUnsignedString(limits.maxGroupCount()[1]), Integer.toUnsignedString(limits.maxGroupCount()[2]),
        limits.maxSharedMemorySize(), limits.maxStorageBufferRange(), limits.maxPushConstantsSize(),
        yesNo(features.storage8()), yesNo(features.storage16()), yesNo(int64), yesNo(float64),
        yesNo(floatControls.preserve32()), yesNo(floatControls.denorms32()), yesNo(floatControls.denorms64()),
        yesNo(features.int64AtomicsOnBuffers()), yesNo(features.int64AtomicsOnWorkgroup()),
        yesNo(features.floatAddOnBuffers()), yesNo(features.floatAddOnWorkgroup()));
  }

  private static String yesNo(boolean value) {
    return value ? "yes" : "no";
  }

  /** Whether kernels may see subnormal floats or doubles flushed to zero here (docs/DRIVER-GAPS.md). */
  boolean flushesSubnormals() {
    return !floatControls.denorms32() || float64 && !floatControls.denorms64();
  }

  /**
   * {@code module} as this device can take it: without the request to preserve subnormals of a
   * float width whose preservation the driver does not offer (lavapipe 22.3 offers none;
   * docs/DRIVER-GAPS.md).
   */
  KernelModule adapt(KernelModule module) {
    Set<Integer> preserved = new HashSet<>();
    if (floatControls.denorms32()) {
      preserved.add(32);
    }
    if (floatControls.denorms64()) {
      preserved.add(64);
    }
    return module.preservingDenormsOnly(preserved);
  }

  /** Throws if the kernel needs what this device lacks: workgroup limits, 64-bit floats, atomics, narrow elements. */
  void checkSupports(KernelSpec spec, KernelModule module) {
    if (cutsLoops() && limits.subgroupSize() < LaunchAbi.LOOP_COUNT_MIN_SUBGROUP) {
      throw new IllegalStateException(name + " ends loops early and has subgroups of " + limits.subgroupSize()
          + " lanes; Kiln's modules count loop turns for subgroups of " + LaunchAbi.LOOP_COUNT_MIN_SUBGROUP
          + " lanes or more, so " + spec + " cannot run there");
    }
    boolean usesDouble = module.capabilities().contains(SpvCapabilityFloat64);
    if (usesDouble && !float64) {
      throw new IllegalStateException(spec + " needs 64-bit floats (shaderFloat64), which " + name + " lacks;"
          + " it uses double values, or float division, which Kiln computes in double for Java's correctly rounded result");
    }
    if (module.capabilities().contains(SpvCapabilityInt64) && !int64) {
      throw new IllegalStateException(spec + " computes with long values, which need shaderInt64; " + name + " lacks it");
    }
    if (module.capabilities().contains(SpvCapabilitySignedZeroInfNanPreserve)
        && !(floatControls.preserve32() && (!usesDouble || floatControls.preserve64()))) {
      throw new IllegalStateException(spec + " needs " + FLOAT_CONTROLS + " with shaderSignedZeroInfNanPreserve,"
          + " which " + name + " lacks; without it the driver may change the sign of zero, infinities and NaNs");
    }
    if (module.capabilities().contains(SpvCapabilityStorageBuffer8BitAccess) && !features.storage8()) {
      throw new IllegalStateException(spec + " has a byte[] or boolean[] buffer, which needs storageBuffer8BitAccess ("
          + STORAGE_8BIT + "); " + name + " lacks it");
    }
    if (module.capabilities().contains(SpvCapabilityStorageBuffer16BitAccess) && !features.storage16()) {
      throw new IllegalStateException(spec + " has a short[] or char[] buffer, which needs storageBuffer16BitAccess; "
          + name + " lacks it");
    }
    for (int capability : module.capabilities()) {
      Map.Entry<Integer, String> operations = SUBGROUP_OPERATIONS.get(capability);
      if (operations != null && (limits.subgroupOperations() & operations.getKey()) == 0) {
        throw new IllegalStateException(spec + " uses " + operations.getValue() + ", which " + name
            + " does not offer to compute shaders (VkPhysicalDeviceSubgroupProperties.supportedOperations)");
      }
    }
    if (module.capabilities().contains(SpvCapabilityCooperativeMatrixKHR)) {
      if (!features.cooperativeMatrix()) {
        throw new IllegalStateException(spec + " uses cooperative matrices, which need " + COOPERATIVE_MATRIX
            + " (cooperativeMatrix); " + name + " lacks it");
      }
      if (!features.matrix16x16x16()) {
        throw new IllegalStateException(spec + " multiplies 16 x 16 x 16 cooperative matrices of float16 into"
            + " floats, a shape " + name + " does not list (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)");
      }
      if (!features.float16()) {
        throw new IllegalStateException(spec + " holds float16 matrices, which need shaderFloat16 (" + FLOAT16 + "); "
            + name + " lacks it");
      }
    }
    if (module.capabilities().contains(SpvCapabilityBFloat16CooperativeMatrixKHR) && !features.bfloat16Matrix16x16x16()) {
      throw new IllegalStateException(spec + " multiplies 16 x 16 x 16 cooperative matrices of bfloat16 into floats,"
          + " which need " + BFLOAT16 + " (shaderBFloat16Type, shaderBFloat16CooperativeMatrix) and the shape in"
          + " vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR; " + name + " lacks them");
    }
    if ((module.capabilities().contains(SpvCapabilityCooperativeMatrixTensorAddressingNV)
        || module.capabilities().contains(SpvCapabilityTensorAddressingNV)) && !features.workgroupMatrices()) {
      throw new IllegalStateException(spec + " loads or stores cooperative matrices through tensor layouts, which need "
          + COOPERATIVE_MATRIX_2 + " (cooperativeMatrixWorkgroupScope, cooperativeMatrixFlexibleDimensions,"
          + " cooperativeMatrixTensorAddressing); " + name + " lacks it");
    }
    if (module.capabilities().contains(SpvCapabilityInt16) && !(features.int16() && features.float16())) {
      throw new IllegalStateException(spec + " holds 16-bit values in workgroup memory (Gpu.sharedPackedShorts, as"
          + " float16 bits), which needs shaderInt16 and shaderFloat16 (" + FLOAT16 + "); " + name + " lacks "
          + (features.int16() ? "shaderFloat16" : "shaderInt16"));
    }
    if (module.capabilities().contains(SpvCapabilityVulkanMemoryModel) && !features.vulkanMemoryModel()) {
      throw new IllegalStateException(spec + " is written for the Vulkan memory model, which needs vulkanMemoryModel ("
          + MEMORY_MODEL + "); " + name + " lacks it");
    }
    if (module.subgroupLongs() && !features.subgroupExtendedTypes()) {
      throw new IllegalStateException(spec + " applies a subgroup operation to longs, which needs"
          + " shaderSubgroupExtendedTypes (" + SUBGROUP_EXTENDED_TYPES + "); " + name + " lacks it");
    }
    if (module.longUpdates().onBuffers() && !features.int64AtomicsOnBuffers()) {
      throw new IllegalStateException(spec + " updates a long[] buffer atomically, which needs shaderBufferInt64Atomics ("
          + ATOMIC_INT64 + "); " + name + " lacks it");
    }
    if (module.longUpdates().onWorkgroupArrays() && !features.int64AtomicsOnWorkgroup()) {
      throw new IllegalStateException(spec + " updates a Gpu.sharedLongs array atomically, which needs"
          + " shaderSharedInt64Atomics (" + ATOMIC_INT64 + "); " + name + " lacks it");
    }
    if (module.floatAdds().onBuffers() && !features.floatAddOnBuffers()) {
      throw new IllegalStateException(spec + " adds to a float[] buffer atomically, which needs shaderBufferFloat32AtomicAdd ("
          + ATOMIC_FLOAT + "); " + name + " lacks it");
    }
    if (module.floatAdds().onWorkgroupArrays() && !features.floatAddOnWorkgroup()) {
      throw new IllegalStateException(spec + " adds to a Gpu.sharedFloats array atomically, which needs"
          + " shaderSharedFloat32AtomicAdd (" + ATOMIC_FLOAT + "); " + name + " lacks it");
    }
    if (module.sharedBytes() > limits.maxSharedMemorySize()) {
      throw new IllegalArgumentException(spec + ": " + module.sharedBytes() + " bytes of workgroup memory exceed "
          + name + "'s limit maxComputeSharedMemorySize = " + limits.maxSharedMemorySize());
    }
  }

  /** Throws if the kernel's workgroup or push constants exceed this device's limits. */
  void checkLaunchShape(KernelSpec spec) {
    long invocations = 1;
    for (int axis = 0; axis < 3; axis++) {
      if (spec.workgroup(axis) > limits.maxWorkgroupSize()[axis]) {
        throw new IllegalArgumentException(spec + ": workgroup size " + spec.workgroup(axis) + " along axis " + axis
            + " exceeds " + name + "'s limit maxComputeWorkGroupSize[" + axis + "] = " + limits.maxWorkgroupSize()[axis]);
      }
      invocations *= spec.workgroup(axis);
    }
    if (invocations > limits.maxWorkgroupInvocations()) {
      throw new IllegalArgumentException(spec + ": workgroup of " + invocations + " invocations exceeds " + name
          + "'s limit maxComputeWorkGroupInvocations = " + limits.maxWorkgroupInvocations());
    }
    if (spec.pushConstantBytes() > limits.maxPushConstantsSize()) {
      throw new IllegalArgumentException(spec + ": " + spec.pushConstantBytes() + " bytes of push constants exceed "
          + name + "'s limit maxPushConstantsSize = " + limits.maxPushConstantsSize());
    }
  }

  /** Throws if a buffer of {@code bytes} cannot be bound on this device, or fit in its memory. */
  void checkBufferSize(long bytes) {
    if (bytes > limits.maxStorageBufferRange()) {
      throw new IllegalArgumentException("a buffer of " + bytes + " bytes exceeds " + name
          + "'s limit maxStorageBufferRange = " + limits.maxStorageBufferRange() + " bytes");
    }
    if (bytes > largestHeap) {
      throw new IllegalArgumentException("a buffer of " + bytes + " bytes exceeds " + name
          + "'s largest memory heap of " + largestHeap + " bytes");
    }
  }
}
