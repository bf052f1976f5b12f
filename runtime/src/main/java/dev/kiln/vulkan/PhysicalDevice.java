package dev.kiln.vulkan;

import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceProperties2;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.LaunchAbi;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkExtensionProperties;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceFeatures;
import org.lwjgl.vulkan.VkPhysicalDeviceFloatControlsProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceLimits;
import org.lwjgl.vulkan.VkPhysicalDeviceMemoryProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties2;
import org.lwjgl.vulkan.VkPhysicalDeviceSubgroupProperties;
import org.lwjgl.vulkan.VkQueueFamilyProperties;

/** A Vulkan device that has a compute queue, with what Kiln needs to know about it. */
record PhysicalDevice(
    VkPhysicalDevice handle,
    String name,
    int type,
    int queueFamily,
    int timestampBits,
    float timestampPeriod,
    long largestHeap,
    int apiVersion,
    int driverVersion,
    int vendorId,
    int deviceId,
    byte[] pipelineCacheUuid,
    Limits limits,
    FloatControls floatControls,
    boolean pushDescriptors,
    boolean memoryBudget,
    Set<DeviceFeature> features) {
  static final String FLOAT_CONTROLS = "VK_KHR_shader_float_controls";
  static final String PUSH_DESCRIPTOR = "VK_KHR_push_descriptor";

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
   * Whether the driver keeps binary16 subnormals (shaderDenormPreserveFloat16): its pipelines then
   * convert {@code Gpu.float16ToFloat}'s bits with the device's own conversion ({@code
   * LaunchAbi.HALF_CONVERSION_SPEC_ID}).
   */
  boolean convertsHalvesExactly() {
    return floatControls.denorms16();
  }

  /**
   * The limits that matter for compute, and Vulkan 1.1's subgroup properties: the size, and the
   * operations compute shaders have ({@code VK_SUBGROUP_FEATURE_*} bits; 0 where the compute stage
   * has none).
   */
  record Limits(
      int[] maxWorkgroupSize,
      int maxWorkgroupInvocations,
      int[] maxGroupCount,
      long maxStorageBufferRange,
      int maxPushConstantsSize,
      int maxSharedMemorySize,
      int subgroupSize,
      int subgroupOperations) {
    static Limits of(VkPhysicalDeviceLimits limits, VkPhysicalDeviceSubgroupProperties subgroups) {
      return new Limits(
          toArray(limits.maxComputeWorkGroupSize()),
          limits.maxComputeWorkGroupInvocations(),
          toArray(limits.maxComputeWorkGroupCount()),
          Integer.toUnsignedLong(limits.maxStorageBufferRange()),
          limits.maxPushConstantsSize(),
          limits.maxComputeSharedMemorySize(),
          subgroups.subgroupSize(),
          (subgroups.supportedStages() & VK_SHADER_STAGE_COMPUTE_BIT) != 0
              ? subgroups.supportedOperations()
              : 0);
    }
  }

  /**
   * Support for VK_KHR_shader_float_controls' SignedZeroInfNanPreserve and DenormPreserve, 32- and
   * 64-bit, which Java-exact kernels declare.
   */
  record FloatControls(
      boolean extension,
      boolean preserve32,
      boolean preserve64,
      boolean denorms32,
      boolean denorms64,
      boolean denorms16) {}

  /**
   * Whether the device is Vulkan in software on the CPU (lavapipe, SwiftShader): about 25 times
   * slower than plain Java, so the best device is the CPU backend rather than it.
   */
  boolean isSoftware() {
    return type == VK_PHYSICAL_DEVICE_TYPE_CPU;
  }

  /** Discrete GPUs first, then integrated, virtual, software (CPU) and other devices. */
  static final Comparator<PhysicalDevice> PREFERENCE =
      Comparator.comparingInt(
          device ->
              switch (device.type()) {
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
      VkPhysicalDeviceFeatures core = VkPhysicalDeviceFeatures.calloc(stack);
      vkGetPhysicalDeviceFeatures(handle, core);
      List<String> extensions = extensions(stack, handle);
      Limits computeLimits = Limits.of(limits, subgroups(stack, handle));
      FloatControls controls = floatControls(stack, handle, extensions);
      return Optional.of(
          new PhysicalDevice(
              handle,
              properties.deviceNameString(),
              properties.deviceType(),
              family,
              limits.timestampComputeAndGraphics() ? timestampBits : 0,
              limits.timestampPeriod(),
              largestHeap(stack, handle),
              properties.apiVersion(),
              properties.driverVersion(),
              properties.vendorID(),
              properties.deviceID(),
              uuid(properties.pipelineCacheUUID()),
              computeLimits,
              controls,
              extensions.contains(PUSH_DESCRIPTOR),
              extensions.contains(MEMORY_BUDGET),
              DeviceFeatures.offered(
                  stack,
                  handle,
                  extensions,
                  core,
                  computeLimits.subgroupOperations(),
                  controls.preserve32(),
                  controls.preserve64())));
    }
  }

  /** Throws if the launch needs more workgroups along y or z than the device takes (x is split). */
  void checkGroupCounts(KernelSpec spec, int groupsY, int groupsZ) {
    checkGroupCount(spec, 1, groupsY);
    checkGroupCount(spec, 2, groupsZ);
  }

  private void checkGroupCount(KernelSpec spec, int axis, int groups) {
    if (Integer.compareUnsigned(groups, limits.maxGroupCount()[axis]) > 0) {
      throw new IllegalArgumentException(
          spec
              + ": "
              + groups
              + " workgroups along axis "
              + axis
              + " exceed "
              + name
              + "'s limit maxComputeWorkGroupCount["
              + axis
              + "] = "
              + Integer.toUnsignedString(limits.maxGroupCount()[axis]));
    }
  }

  private static List<String> extensions(MemoryStack stack, VkPhysicalDevice device) {
    IntBuffer count = stack.mallocInt(1);
    Vk.check(
        vkEnumerateDeviceExtensionProperties(device, (String) null, count, null),
        "vkEnumerateDeviceExtensionProperties");
    VkExtensionProperties.Buffer extensions = VkExtensionProperties.malloc(count.get(0));
    try {
      Vk.check(
          vkEnumerateDeviceExtensionProperties(device, (String) null, count, extensions),
          "vkEnumerateDeviceExtensionProperties");
      return extensions.stream()
          .limit(count.get(0))
          .map(VkExtensionProperties::extensionNameString)
          .toList();
    } finally {
      extensions.free();
    }
  }

  private static FloatControls floatControls(
      MemoryStack stack, VkPhysicalDevice device, List<String> extensions) {
    if (!extensions.contains(FLOAT_CONTROLS)) {
      return new FloatControls(false, false, false, false, false, false);
    }
    VkPhysicalDeviceFloatControlsProperties controls =
        VkPhysicalDeviceFloatControlsProperties.calloc(stack).sType$Default();
    vkGetPhysicalDeviceProperties2(
        device, VkPhysicalDeviceProperties2.calloc(stack).sType$Default().pNext(controls));
    return new FloatControls(
        true,
        controls.shaderSignedZeroInfNanPreserveFloat32(),
        controls.shaderSignedZeroInfNanPreserveFloat64(),
        controls.shaderDenormPreserveFloat32(),
        controls.shaderDenormPreserveFloat64(),
        controls.shaderDenormPreserveFloat16());
  }

  private static VkPhysicalDeviceSubgroupProperties subgroups(
      MemoryStack stack, VkPhysicalDevice device) {
    VkPhysicalDeviceSubgroupProperties subgroups =
        VkPhysicalDeviceSubgroupProperties.calloc(stack).sType$Default();
    vkGetPhysicalDeviceProperties2(
        device, VkPhysicalDeviceProperties2.calloc(stack).sType$Default().pNext(subgroups));
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
    String kind =
        switch (type) {
          case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU -> "discrete GPU";
          case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU -> "integrated GPU";
          case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU -> "virtual GPU";
          case VK_PHYSICAL_DEVICE_TYPE_CPU -> "CPU (software)";
          default -> "other";
        };
    return String.format(
        "%s: %s, Vulkan %d.%d.%d, driver 0x%08x%s%n"
            + "    workgroups: up to %d x %d x %d, %d invocations; %s x %s x %s of them; %d bytes of shared memory%n"
            + "    buffers up to %d bytes; %d bytes of push constants; 8-bit elements %s, 16-bit %s%n"
            + "    64-bit ints %s, floats %s; signed zero, Inf and NaN kept %s; subnormals kept: float %s,"
            + " double %s, float16 %s%n"
            + "    atomics: long on buffers %s, on workgroup memory %s, float add on buffers %s, on workgroup memory %s",
        name,
        kind,
        VK_API_VERSION_MAJOR(apiVersion),
        VK_API_VERSION_MINOR(apiVersion),
        VK_API_VERSION_PATCH(apiVersion),
        driverVersion,
        marker,
        limits.maxWorkgroupSize()[0],
        limits.maxWorkgroupSize()[1],
        limits.maxWorkgroupSize()[2],
        limits.maxWorkgroupInvocations(),
        Integer.toUnsignedString(limits.maxGroupCount()[0]),
        Integer.toUnsignedString(limits.maxGroupCount()[1]),
        Integer.toUnsignedString(limits.maxGroupCount()[2]),
        limits.maxSharedMemorySize(),
        limits.maxStorageBufferRange(),
        limits.maxPushConstantsSize(),
        has(DeviceFeature.STORAGE_8BIT),
        has(DeviceFeature.STORAGE_16BIT),
        has(DeviceFeature.INT64),
        has(DeviceFeature.FLOAT64),
        yesNo(floatControls.preserve32()),
        yesNo(floatControls.denorms32()),
        yesNo(floatControls.denorms64()),
        yesNo(floatControls.denorms16()),
        has(DeviceFeature.LONG_ATOMICS_ON_BUFFERS),
        has(DeviceFeature.LONG_ATOMICS_ON_WORKGROUP),
        has(DeviceFeature.FLOAT_ADDS_ON_BUFFERS),
        has(DeviceFeature.FLOAT_ADDS_ON_WORKGROUP));
  }

  private String has(DeviceFeature feature) {
    return yesNo(features.contains(feature));
  }

  private static String yesNo(boolean value) {
    return value ? "yes" : "no";
  }

  /**
   * Whether kernels may see subnormal floats or doubles flushed to zero here (docs/DRIVER-GAPS.md).
   */
  boolean flushesSubnormals() {
    return !floatControls.denorms32()
        || features.contains(DeviceFeature.FLOAT64) && !floatControls.denorms64();
  }

  /**
   * A module's code as this device can take it: without the request to preserve subnormals of a
   * float width whose preservation the driver does not offer (lavapipe 22.3 offers none;
   * docs/DRIVER-GAPS.md).
   */
  byte[] adapt(byte[] code) {
    Set<Integer> preserved = new HashSet<>();
    if (floatControls.denorms32()) {
      preserved.add(32);
    }
    if (floatControls.denorms64()) {
      preserved.add(64);
    }
    if (floatControls.denorms16()) {
      preserved.add(16);
    }
    return DenormModes.preservingOnly(code, preserved);
  }

  /**
   * Throws if the kernel needs what this device lacks: a feature of its description (the refusal
   * its row words), more workgroup memory than the device has, or loop counting on subgroups too
   * narrow for it.
   */
  void checkSupports(KernelSpec spec, KernelDescription kernel) {
    if (cutsLoops() && limits.subgroupSize() < LaunchAbi.LOOP_COUNT_MIN_SUBGROUP) {
      throw new IllegalStateException(
          name
              + " ends loops early and has subgroups of "
              + limits.subgroupSize()
              + " lanes; Kiln's modules count loop turns for subgroups of "
              + LaunchAbi.LOOP_COUNT_MIN_SUBGROUP
              + " lanes or more, so "
              + spec
              + " cannot run there");
    }
    for (DeviceFeature feature : kernel.features()) {
      if (!features.contains(feature)) {
        throw new IllegalStateException(feature.refusal(spec, name));
      }
    }
    if (kernel.sharedBytes() > limits.maxSharedMemorySize()) {
      throw new IllegalArgumentException(
          spec
              + ": "
              + kernel.sharedBytes()
              + " bytes of workgroup memory exceed "
              + name
              + "'s limit maxComputeSharedMemorySize = "
              + limits.maxSharedMemorySize());
    }
  }

  /** Throws if the kernel's workgroup or push constants exceed this device's limits. */
  void checkLaunchShape(KernelSpec spec) {
    long invocations = 1;
    for (int axis = 0; axis < 3; axis++) {
      if (spec.workgroup(axis) > limits.maxWorkgroupSize()[axis]) {
        throw new IllegalArgumentException(
            spec
                + ": workgroup size "
                + spec.workgroup(axis)
                + " along axis "
                + axis
                + " exceeds "
                + name
                + "'s limit maxComputeWorkGroupSize["
                + axis
                + "] = "
                + limits.maxWorkgroupSize()[axis]);
      }
      invocations *= spec.workgroup(axis);
    }
    if (invocations > limits.maxWorkgroupInvocations()) {
      throw new IllegalArgumentException(
          spec
              + ": workgroup of "
              + invocations
              + " invocations exceeds "
              + name
              + "'s limit maxComputeWorkGroupInvocations = "
              + limits.maxWorkgroupInvocations());
    }
    if (spec.pushConstantBytes() > limits.maxPushConstantsSize()) {
      throw new IllegalArgumentException(
          spec
              + ": "
              + spec.pushConstantBytes()
              + " bytes of push constants exceed "
              + name
              + "'s limit maxPushConstantsSize = "
              + limits.maxPushConstantsSize());
    }
  }

  /** Throws if a buffer of {@code bytes} cannot be bound on this device, or fit in its memory. */
  void checkBufferSize(long bytes) {
    if (bytes > limits.maxStorageBufferRange()) {
      throw new IllegalArgumentException(
          "a buffer of "
              + bytes
              + " bytes exceeds "
              + name
              + "'s limit maxStorageBufferRange = "
              + limits.maxStorageBufferRange()
              + " bytes");
    }
    if (bytes > largestHeap) {
      throw new IllegalArgumentException(
          "a buffer of "
              + bytes
              + " bytes exceeds "
              + name
              + "'s largest memory heap of "
              + largestHeap
              + " bytes");
    }
  }
}
