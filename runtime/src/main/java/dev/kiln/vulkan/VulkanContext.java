package dev.kiln.vulkan;

import static org.lwjgl.system.MemoryUtil.memGetLong;
import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.EXTDebugUtils.VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK11.VK_API_VERSION_1_1;

import dev.kiln.backend.Backend;
import dev.kiln.backend.StartupTrace;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.vma.VmaAllocatorCreateInfo;
import org.lwjgl.util.vma.VmaBudget;
import org.lwjgl.util.vma.VmaVulkanFunctions;
import org.lwjgl.vulkan.*;

/**
 * The Vulkan objects a device is made of: the instance (with the validation layer where asked for),
 * the chosen physical device, the logical device with its one compute queue, and the VMA allocator;
 * submission to the queue and waiting for fences.
 */
final class VulkanContext {
  private static final long FENCE_TIMEOUT_NANOS =
      TimeUnit.SECONDS.toNanos(Long.getLong("kiln.fenceTimeoutSeconds", 120));

  /**
   * How long a wait polls the fence before it sleeps in the driver: a short launch is done in a few
   * tens of microseconds, and a sleeping wait wakes 25–40 µs late on the H200
   * (docs/PERFORMANCE.md); bounded, so that a long kernel does not keep a core busy. {@code
   * -Dkiln.fenceSpinMicros=0} turns it off.
   */
  private static final long FENCE_SPIN_NANOS =
      TimeUnit.MICROSECONDS.toNanos(Long.getLong("kiln.fenceSpinMicros", 100));

  /**
   * Why LWJGL could not load the Vulkan loader, the first time: every later open gives the same
   * reason.
   */
  private static volatile String loaderFailure;

  final VkInstance instance;
  final ValidationLog validation;
  final PhysicalDevice physical;
  final VkDevice device;
  final long allocator;

  /** Whether kernels' buffers are bound as push descriptors (VK_KHR_push_descriptor). */
  final boolean pushDescriptors;

  private final VkQueue queue;

  private VulkanContext(VkInstance instance, ValidationLog validation, PhysicalDevice physical) {
    this.instance = instance;
    this.validation = validation;
    this.physical = physical;
    pushDescriptors = physical.pushDescriptors() && !Boolean.getBoolean("kiln.noPushDescriptors");
    try (MemoryStack stack = MemoryStack.stackPush()) {
      PointerBuffer pointer = stack.mallocPointer(1);
      VkDeviceQueueCreateInfo.Buffer queues = VkDeviceQueueCreateInfo.calloc(1, stack);
      queues
          .get(0)
          .sType$Default()
          .queueFamilyIndex(physical.queueFamily())
          .pQueuePriorities(stack.floats(1f));
      VkPhysicalDeviceFeatures features = DeviceFeatures.core(stack, physical.features());
      List<String> extensions = new ArrayList<>();
      if (pushDescriptors) {
        extensions.add(PhysicalDevice.PUSH_DESCRIPTOR);
      }
      if (physical.memoryBudget()) {
        extensions.add(PhysicalDevice.MEMORY_BUDGET);
      }
      long next = DeviceFeatures.enabled(stack, physical.features(), extensions);
      PointerBuffer names = stack.mallocPointer(extensions.size());
      extensions.forEach(name -> names.put(stack.UTF8(name)));
      VkDeviceCreateInfo deviceInfo =
          VkDeviceCreateInfo.calloc(stack)
              .sType$Default()
              .pNext(next)
              .pQueueCreateInfos(queues)
              .pEnabledFeatures(features)
              .ppEnabledExtensionNames(names.flip());
      Vk.check(vkCreateDevice(physical.handle(), deviceInfo, null, pointer), "vkCreateDevice");
      StartupTrace.mark("vkCreateDevice (the driver)");
      device = new VkDevice(pointer.get(0), physical.handle(), deviceInfo, VK_API_VERSION_1_1);
      StartupTrace.mark("LWJGL's device function table");
      vkGetDeviceQueue(device, physical.queueFamily(), 0, pointer);
      queue = new VkQueue(pointer.get(0), device);

      VmaAllocatorCreateInfo allocatorInfo =
          VmaAllocatorCreateInfo.calloc(stack)
              .physicalDevice(physical.handle())
              .device(device)
              .instance(instance)
              .pVulkanFunctions(VmaVulkanFunctions.calloc(stack).set(instance, device))
              .vulkanApiVersion(VK_API_VERSION_1_1)
              .flags(physical.memoryBudget() ? VMA_ALLOCATOR_CREATE_EXT_MEMORY_BUDGET_BIT : 0);
      Vk.check(vmaCreateAllocator(allocatorInfo, pointer), "vmaCreateAllocator");
      allocator = pointer.get(0);
      StartupTrace.mark("VMA allocator");
    }
  }

  /**
   * Opens the Vulkan device of rank {@code index} (0 for the best) among those whose name contains
   * {@code nameFragment} (any device when it is empty), ranked discrete GPUs first, then
   * integrated, virtual and software ones.
   */
  static VulkanContext open(
      String nameFragment, boolean validationOn, boolean hardwareOnly, int index)
      throws VulkanUnavailableException {
    ValidationLog validation = validationOn ? new ValidationLog() : null;
    VkInstance instance = createInstance(validation);
    StartupTrace.mark("LWJGL's instance function table");
    try {
      List<PhysicalDevice> named =
          PhysicalDevice.enumerate(instance).stream()
              .filter(d -> d.name().toLowerCase().contains(nameFragment.toLowerCase()))
              .sorted(PhysicalDevice.PREFERENCE)
              .toList();
      List<PhysicalDevice> candidates =
          hardwareOnly ? named.stream().filter(d -> !d.isSoftware()).toList() : named;
      if (candidates.isEmpty()) {
        throw new VulkanUnavailableException(
            !named.isEmpty()
                ? "only software Vulkan ("
                    + named.getFirst().name()
                    + "), slower than the CPU backend; name it to use it"
                    + " (-Dkiln.device=vulkan)"
                : nameFragment.isEmpty()
                    ? "the Vulkan loader found no device with a compute queue"
                    : "no Vulkan device with a compute queue has a name containing '"
                        + nameFragment
                        + "'",
            null);
      }
      if (index >= candidates.size()) {
        throw new VulkanUnavailableException(
            "device #"
                + index
                + " was asked for, but "
                + candidates.size()
                + (candidates.size() == 1 ? " Vulkan device matches" : " Vulkan devices match")
                + (nameFragment.isEmpty() ? "" : " '" + nameFragment + "'")
                + " (#0 is the first)",
            null);
      }
      StartupTrace.mark("devices enumerated, properties and features read");
      LwjglNatives.loadVma();
      return new VulkanContext(instance, validation, candidates.get(index));
    } catch (VulkanUnavailableException | RuntimeException e) {
      if (validation != null) {
        validation.close(instance);
      }
      vkDestroyInstance(instance, null);
      throw e;
    }
  }

  /**
   * The largest device-local memory heap, and what of it this process may still allocate: the
   * driver's budget for it less this process's use (VK_EXT_memory_budget), or VMA's estimate where
   * the driver does not have the extension.
   */
  Backend.Capacity capacity() {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      VkPhysicalDeviceMemoryProperties properties = VkPhysicalDeviceMemoryProperties.calloc(stack);
      vkGetPhysicalDeviceMemoryProperties(physical.handle(), properties);
      // device-local heaps first, the largest of them
      Comparator<VkMemoryHeap> preference =
          Comparator.<VkMemoryHeap>comparingInt(h -> h.flags() & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
              .thenComparingLong(VkMemoryHeap::size);
      int heap = 0;
      for (int i = 1; i < properties.memoryHeapCount(); i++) {
        if (preference.compare(properties.memoryHeaps(i), properties.memoryHeaps(heap)) > 0) {
          heap = i;
        }
      }
      VmaBudget.Buffer budgets = VmaBudget.calloc(VK_MAX_MEMORY_HEAPS, stack);
      vmaGetHeapBudgets(allocator, budgets);
      VmaBudget budget = budgets.get(heap);
      return new Backend.Capacity(
          properties.memoryHeaps(heap).size(), Math.max(0, budget.budget() - budget.usage()));
    }
  }

  /**
   * How many hardware Vulkan devices with a compute queue there are (software ones not counted).
   */
  static int hardwareDeviceCount() throws VulkanUnavailableException {
    VkInstance instance = createInstance(null);
    try {
      return (int) PhysicalDevice.enumerate(instance).stream().filter(d -> !d.isSoftware()).count();
    } finally {
      vkDestroyInstance(instance, null);
    }
  }

  /**
   * One entry per Vulkan device with a compute queue, best first: what Kiln needs to know of it,
   * and on its first line whether {@code Device.open()} takes it (the first hardware device).
   */
  static List<String> describeDevices() throws VulkanUnavailableException {
    VkInstance instance = createInstance(null);
    try {
      List<PhysicalDevice> devices =
          PhysicalDevice.enumerate(instance).stream().sorted(PhysicalDevice.PREFERENCE).toList();
      PhysicalDevice best = devices.stream().filter(d -> !d.isSoftware()).findFirst().orElse(null);
      return devices.stream()
          .map(
              d ->
                  d.describe(
                      d == best
                          ? " [the default: the best hardware GPU]"
                          : d.isSoftware()
                              ? " [only when named: software Vulkan runs slower than the CPU backend]"
                              : ""))
          .toList();
    } finally {
      vkDestroyInstance(instance, null);
    }
  }

  /**
   * The device groups the driver reports (Vulkan 1.1's vkEnumeratePhysicalDeviceGroups), a line
   * each: its devices' names, and whether one allocation may span them. Kiln opens each device of a
   * group on its own; the listing records what the driver offers.
   */
  static List<String> describeDeviceGroups() throws VulkanUnavailableException {
    VkInstance instance = createInstance(null);
    try (MemoryStack stack = MemoryStack.stackPush()) {
      IntBuffer count = stack.mallocInt(1);
      Vk.check(
          VK11.vkEnumeratePhysicalDeviceGroups(instance, count, null),
          "vkEnumeratePhysicalDeviceGroups");
      VkPhysicalDeviceGroupProperties.Buffer groups =
          VkPhysicalDeviceGroupProperties.calloc(count.get(0), stack);
      groups.forEach(VkPhysicalDeviceGroupProperties::sType$Default);
      Vk.check(
          VK11.vkEnumeratePhysicalDeviceGroups(instance, count, groups),
          "vkEnumeratePhysicalDeviceGroups");
      List<String> lines = new ArrayList<>();
      for (int g = 0; g < count.get(0); g++) {
        VkPhysicalDeviceGroupProperties group = groups.get(g);
        List<String> names = new ArrayList<>();
        for (int d = 0; d < group.physicalDeviceCount(); d++) {
          VkPhysicalDeviceProperties properties = VkPhysicalDeviceProperties.malloc(stack);
          vkGetPhysicalDeviceProperties(
              new VkPhysicalDevice(group.physicalDevices().get(d), instance), properties);
          names.add(properties.deviceNameString());
        }
        lines.add(
            "group "
                + g
                + ": "
                + group.physicalDeviceCount()
                + (group.physicalDeviceCount() == 1 ? " device" : " devices")
                + " ("
                + String.join(", ", names)
                + ")"
                + (group.physicalDeviceCount() > 1
                    ? ", one allocation "
                        + (group.subsetAllocation() ? "may" : "may not")
                        + " span a subset"
                    : ""));
      }
      return lines;
    } finally {
      vkDestroyInstance(instance, null);
    }
  }

  private static VkInstance createInstance(ValidationLog validation)
      throws VulkanUnavailableException {
    Runnable drivers = VulkanWarmup.driversWarmup();
    try {
      LwjglNatives.loadCore();
    } finally {
      drivers
          .run(); // even where the core cannot load: another opening thread may be waiting for the
      // drivers
    }
    try (MemoryStack stack = MemoryStack.stackPush()) {
      StartupTrace.mark("LWJGL core loaded (native library, memory stack)");
      VulkanWarmup.startBindings();
      if (VulkanWarmup.awaitDrivers()) {
        StartupTrace.mark("waiting for the drivers thread");
      }
      VkApplicationInfo app =
          VkApplicationInfo.calloc(stack)
              .sType$Default()
              .pApplicationName(stack.UTF8("Kiln"))
              .pEngineName(stack.UTF8("Kiln"))
              .apiVersion(VK_API_VERSION_1_1);
      VkInstanceCreateInfo info =
          VkInstanceCreateInfo.calloc(stack).sType$Default().pApplicationInfo(app);
      if (validation != null) {
        if (!layerInstalled(stack, ValidationLog.LAYER)) {
          throw new IllegalStateException(
              "kiln.validation=true, but the layer "
                  + ValidationLog.LAYER
                  + " is not installed (Debian: apt-get install vulkan-validationlayers)");
        }
        info.ppEnabledLayerNames(stack.pointers(stack.UTF8(ValidationLog.LAYER)))
            .ppEnabledExtensionNames(stack.pointers(stack.UTF8(VK_EXT_DEBUG_UTILS_EXTENSION_NAME)))
            .pNext(validation.createInfo(stack));
      }
      PointerBuffer pointer = stack.mallocPointer(1);
      StartupTrace.mark("create-info structs (LWJGL's Vulkan classes, loader)");
      int result = vkCreateInstance(info, null, pointer);
      if (result != VK_SUCCESS) {
        throw new VulkanUnavailableException(
            "vkCreateInstance failed: "
                + Vk.name(result)
                + (result == VK_ERROR_INCOMPATIBLE_DRIVER
                    ? " (the Vulkan loader found no driver)"
                    : ""),
            null);
      }
      StartupTrace.mark("vkCreateInstance (the Vulkan loader and driver; LWJGL's bindings)");
      VkInstance instance = new VkInstance(pointer.get(0), info);
      if (validation != null) {
        validation.attach(instance);
      }
      return instance;
    } catch (VulkanUnavailableException | IllegalStateException e) {
      throw e;
    } catch (Throwable e) { // no loader: LWJGL fails to link it
      String loader = VulkanWarmup.loaderName();
      // LWJGL's Vulkan class fails to initialize once; later opens get "Could not initialize class"
      String reason =
          e instanceof NoClassDefFoundError && loaderFailure != null ? loaderFailure : e.toString();
      loaderFailure = reason;
      throw new VulkanUnavailableException(
          "cannot load the Vulkan loader"
              + (loader == null ? "" : " (" + loader + ")")
              + ": "
              + reason,
          e);
    }
  }

  private static boolean layerInstalled(MemoryStack stack, String name) {
    IntBuffer count = stack.mallocInt(1);
    Vk.check(vkEnumerateInstanceLayerProperties(count, null), "vkEnumerateInstanceLayerProperties");
    VkLayerProperties.Buffer layers =
        VkLayerProperties.malloc(count.get(0)); // 520 bytes each: on the heap
    try {
      Vk.check(
          vkEnumerateInstanceLayerProperties(count, layers), "vkEnumerateInstanceLayerProperties");
      return layers.stream()
          .limit(count.get(0))
          .anyMatch(layer -> layer.layerNameString().equals(name));
    } finally {
      layers.free();
    }
  }

  /** Submits {@code submit} signalling {@code fence}; threads take turns at the queue. */
  void submit(VkSubmitInfo submit, long fence) {
    synchronized (queue) {
      Vk.check(nvkQueueSubmit(queue, 1, submit.address(), fence), "vkQueueSubmit");
    }
  }

  /**
   * Waits for the fence held at {@code fenceAddress} (within the timeout) and resets it; {@code
   * work} names what runs, in the message. Allocates nothing: the fence is passed by address.
   */
  void awaitFence(long fenceAddress, Object work) {
    long fence = memGetLong(fenceAddress);
    int result = spinOn(fence);
    if (result == VK_NOT_READY) {
      result = nvkWaitForFences(device, 1, fenceAddress, VK_TRUE, FENCE_TIMEOUT_NANOS);
    }
    if (result == VK_TIMEOUT) {
      throw new VulkanException(
          work
              + " did not finish within "
              + TimeUnit.NANOSECONDS.toSeconds(FENCE_TIMEOUT_NANOS)
              + " s (kiln.fenceTimeoutSeconds)");
    }
    Vk.check(result, "vkWaitForFences");
    Vk.check(nvkResetFences(device, 1, fenceAddress), "vkResetFences");
  }

  /**
   * Polls {@code fence} for at most {@link #FENCE_SPIN_NANOS}; VK_NOT_READY if it is still
   * unsignaled.
   */
  private int spinOn(long fence) {
    long until = System.nanoTime() + FENCE_SPIN_NANOS;
    int status;
    do {
      status = vkGetFenceStatus(device, fence);
      if (status != VK_NOT_READY) {
        return status;
      }
      Thread.onSpinWait();
    } while (System.nanoTime() < until);
    return status;
  }

  void checkValidation(String during) {
    if (validation != null) {
      validation.throwIfAny(during);
    }
  }

  /**
   * Destroys the allocator, the device and the instance; everything made from them must be gone.
   */
  void close() {
    vmaDestroyAllocator(allocator);
    vkDestroyDevice(device, null);
    if (validation != null) {
      try {
        validation.throwIfAny("while closing the device");
      } finally {
        validation.close(instance);
        vkDestroyInstance(instance, null);
      }
    } else {
      vkDestroyInstance(instance, null);
    }
  }
}
