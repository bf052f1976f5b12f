package dev.kiln.vulkan;

import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.EXTDebugUtils.VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK11.VK_API_VERSION_1_1;

import dev.kiln.Grid;
import dev.kiln.KernelSpec;
import dev.kiln.NumericType;
import dev.kiln.backend.Backend;
import dev.kiln.backend.BackendBatch;
import dev.kiln.backend.BackendBuffer;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.vma.VmaAllocatorCreateInfo;
import org.lwjgl.util.vma.VmaVulkanFunctions;
import org.lwjgl.vulkan.*;

/**
 * A Vulkan compute device: one instance, one logical device with one compute queue, a VMA
 * allocator, and the pipelines of the kernels run so far. Each dispatch is recorded into the one
 * command buffer, submitted, and waited for.
 */
public final class VulkanBackend implements Backend {
  /**
   * {@code -Dkiln.memory=staging} keeps buffers device-local and unmapped even where the device has
   * device-local host-visible memory, so that the discrete-GPU path runs on lavapipe too;
   * {@code -Dkiln.memory=host} puts them in mapped host memory (for comparisons only: the device
   * then reads them across the bus).
   */
  private static final String MEMORY = System.getProperty("kiln.memory", "auto");
  private static final long FENCE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(Long.getLong("kiln.fenceTimeoutSeconds", 120));
  /**
   * How long a wait polls the fence before it sleeps in the driver: a short launch is done in a few
   * tens of microseconds, and a sleeping wait wakes 25–40 µs late on the H200 (docs/PERFORMANCE.md);
   * bounded, so that a long kernel does not keep a core busy. {@code -Dkiln.fenceSpinMicros=0}
   * turns it off.
   */
  private static final long FENCE_SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(Long.getLong("kiln.fenceSpinMicros", 100));

  private final VkInstance instance;
  private final ValidationLog validation;
  private final PhysicalDevice physical;
  private final VkDevice device;
  private final VkQueue queue;
  private final long allocator;
  private final ThreadLocal<ThreadContext> context = new ThreadLocal<>();
  private final List<ThreadContext> contexts = new ArrayList<>();
  /** Resources of finished batches, for the next ones. */
  private final java.util.concurrent.ConcurrentLinkedDeque<BatchResources> idleBatches =
      new java.util.concurrent.ConcurrentLinkedDeque<>();
  private final PipelineCache pipelineCache;
  private final Map<KernelSpec, ComputePipeline> pipelines = new IdentityHashMap<>();
  private final Set<VulkanBuffer> live = new LinkedHashSet<>();
  private boolean closed;

  private VulkanBackend(VkInstance instance, ValidationLog validation, PhysicalDevice physical) {
    this.instance = instance;
    this.validation = validation;
    this.physical = physical;
    try (MemoryStack stack = MemoryStack.stackPush()) {
      PointerBuffer pointer = stack.mallocPointer(1);
      LongBuffer handle = stack.mallocLong(1);

      VkDeviceQueueCreateInfo.Buffer queues = VkDeviceQueueCreateInfo.calloc(1, stack);
      queues.get(0).sType$Default().queueFamilyIndex(physical.queueFamily()).pQueuePriorities(stack.floats(1f));
      VkPhysicalDeviceFeatures features = VkPhysicalDeviceFeatures.calloc(stack).shaderFloat64(physical.float64())
          .shaderInt64(physical.int64());
      VkDeviceCreateInfo deviceInfo = VkDeviceCreateInfo.calloc(stack).sType$Default().pQueueCreateInfos(queues)
          .pEnabledFeatures(features);
      if (physical.floatControls().extension()) {
        deviceInfo.ppEnabledExtensionNames(stack.pointers(stack.UTF8(PhysicalDevice.FLOAT_CONTROLS)));
      }
      Vk.check(vkCreateDevice(physical.handle(), deviceInfo, null, pointer), "vkCreateDevice");
      device = new VkDevice(pointer.get(0), physical.handle(), deviceInfo, VK_API_VERSION_1_1);
      vkGetDeviceQueue(device, physical.queueFamily(), 0, pointer);
      queue = new VkQueue(pointer.get(0), device);

      VmaAllocatorCreateInfo allocatorInfo = VmaAllocatorCreateInfo.calloc(stack)
          .physicalDevice(physical.handle())
          .device(device)
          .instance(instance)
          .pVulkanFunctions(VmaVulkanFunctions.calloc(stack).set(instance, device))
          .vulkanApiVersion(VK_API_VERSION_1_1);
      Vk.check(vmaCreateAllocator(allocatorInfo, pointer), "vmaCreateAllocator");
      allocator = pointer.get(0);

    }
    pipelineCache = PipelineCache.open(device, physical);
    checkValidation("while opening the device");
  }

  /**
   * Opens the best Vulkan device whose name contains {@code nameFragment} (any device when it is
   * empty): discrete GPUs first, then integrated, virtual and software ones.
   */
  public static VulkanBackend open(String nameFragment, boolean validationOn) throws VulkanUnavailableException {
    VkInstance instance;
    ValidationLog validation = validationOn ? new ValidationLog() : null;
    try {
      instance = createInstance(validation);
    } catch (VulkanUnavailableException e) {
      throw e;
    } catch (Throwable e) { // no loader: LWJGL fails to link libvulkan
      throw new VulkanUnavailableException("cannot load the Vulkan loader (libvulkan.so.1): " + e, e);
    }
    try {
      List<PhysicalDevice> candidates = PhysicalDevice.enumerate(instance).stream()
          .filter(d -> d.name().toLowerCase().contains(nameFragment.toLowerCase()))
          .sorted(PhysicalDevice.PREFERENCE)
          .toList();
      if (candidates.isEmpty()) {
        throw new VulkanUnavailableException(nameFragment.isEmpty()
            ? "the Vulkan loader found no device with a compute queue"
            : "no Vulkan device with a compute queue has a name containing '" + nameFragment + "'", null);
      }
      return new VulkanBackend(instance, validation, candidates.getFirst());
    } catch (VulkanUnavailableException | RuntimeException e) {
      if (validation != null) {
        validation.close(instance);
      }
      vkDestroyInstance(instance, null);
      throw e;
    }
  }

  /** One line per Vulkan device with a compute queue, best first: what Kiln needs to know of it. */
  public static List<String> describeDevices() throws VulkanUnavailableException {
    VkInstance instance;
    try {
      instance = createInstance(null);
    } catch (VulkanUnavailableException e) {
      throw e;
    } catch (Throwable e) {
      throw new VulkanUnavailableException("cannot load the Vulkan loader (libvulkan.so.1): " + e, e);
    }
    try {
      return PhysicalDevice.enumerate(instance).stream().sorted(PhysicalDevice.PREFERENCE).map(PhysicalDevice::describe)
          .toList();
    } finally {
      vkDestroyInstance(instance, null);
    }
  }

  private static VkInstance createInstance(ValidationLog validation) throws VulkanUnavailableException {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      VkApplicationInfo app = VkApplicationInfo.calloc(stack)
          .sType$Default()
          .pApplicationName(stack.UTF8("Kiln"))
          .pEngineName(stack.UTF8("Kiln"))
          .apiVersion(VK_API_VERSION_1_1);
      VkInstanceCreateInfo info = VkInstanceCreateInfo.calloc(stack).sType$Default().pApplicationInfo(app);
      if (validation != null) {
        if (!layerInstalled(stack, ValidationLog.LAYER)) {
          throw new IllegalStateException("kiln.validation=true, but the layer " + ValidationLog.LAYER
              + " is not installed (Debian: apt-get install vulkan-validationlayers)");
        }
        info.ppEnabledLayerNames(stack.pointers(stack.UTF8(ValidationLog.LAYER)))
            .ppEnabledExtensionNames(stack.pointers(stack.UTF8(VK_EXT_DEBUG_UTILS_EXTENSION_NAME)))
            .pNext(validation.createInfo(stack));
      }
      PointerBuffer pointer = stack.mallocPointer(1);
      int result = vkCreateInstance(info, null, pointer);
      if (result != VK_SUCCESS) {
        throw new VulkanUnavailableException("vkCreateInstance failed: " + Vk.name(result), null);
      }
      VkInstance instance = new VkInstance(pointer.get(0), info);
      if (validation != null) {
        validation.attach(instance);
      }
      return instance;
    }
  }

  private static boolean layerInstalled(MemoryStack stack, String name) {
    IntBuffer count = stack.mallocInt(1);
    Vk.check(vkEnumerateInstanceLayerProperties(count, null), "vkEnumerateInstanceLayerProperties");
    VkLayerProperties.Buffer layers = VkLayerProperties.malloc(count.get(0), stack);
    Vk.check(vkEnumerateInstanceLayerProperties(count, layers), "vkEnumerateInstanceLayerProperties");
    return layers.stream().anyMatch(layer -> layer.layerNameString().equals(name));
  }

  long allocator() {
    return allocator;
  }

  int queueFamily() {
    return physical.queueFamily();
  }

  PhysicalDevice physical() {
    return physical;
  }

  /** The calling thread's command buffer, fence and fault buffer, made on its first use. */
  private ThreadContext context() {
    ThreadContext current = context.get();
    if (current == null) {
      current = new ThreadContext(this);
      context.set(current);
      synchronized (contexts) {
        contexts.add(current);
      }
    }
    return current;
  }

  /** Submits {@code commands}; threads take turns at the queue. */
  void submit(VkCommandBuffer commands, long fence) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      VkSubmitInfo submit = VkSubmitInfo.calloc(stack).sType$Default().pCommandBuffers(stack.pointers(commands));
      synchronized (queue) {
        Vk.check(vkQueueSubmit(queue, submit, fence), "vkQueueSubmit");
      }
    }
  }

  VkDevice device() {
    return device;
  }

  @Override
  public String deviceName() {
    return physical.name();
  }

  @Override
  public String kind() {
    return "vulkan";
  }

  @Override
  public long pipelineCacheLoadedBytes() {
    return pipelineCache.loadedBytes();
  }

  @Override
  public boolean validationEnabled() {
    return validation != null;
  }

  @Override
  public BackendBuffer allocate(NumericType type, int length) {
    physical.checkBufferSize((length + 1L) * type.bytes());
    if (MEMORY.equals("host")) {
      VulkanBuffer host = new VulkanBuffer(this, type, length, VulkanBuffer.Placement.STAGING);
      synchronized (live) {
        live.add(host);
      }
      host.clear();
      return host;
    }
    VulkanBuffer buffer = null;
    if (!MEMORY.equals("staging")) {
      buffer = new VulkanBuffer(this, type, length, VulkanBuffer.Placement.MAPPED);
      if (!buffer.isDeviceLocal()) { // host memory: the device would read it across the bus
        buffer.close();
        buffer = null;
      }
    }
    if (buffer == null) {
      buffer = new VulkanBuffer(this, type, length, VulkanBuffer.Placement.DEVICE);
    }
    synchronized (live) {
      live.add(buffer);
    }
    buffer.clear();
    return buffer;
  }

  /** A host buffer to move {@code length} values to or from a device-local one. */
  /**
   * A buffer holding a copy of {@code array}, for a launch on Java arrays: the calling thread's
   * idle one of that type and length where it has one (written over in full), else a new one; closing
   * it gives it back for the next launch.
   */
  @Override
  public BackendBuffer stage(Object array) {
    NumericType type = NumericType.ofArray(array);
    int length = java.lang.reflect.Array.getLength(array);
    ScratchBuffers scratch = context().scratch;
    VulkanBuffer buffer = scratch.take(type, length);
    if (buffer == null) {
      buffer = (VulkanBuffer) allocate(type, length);
      buffer.recycleInto(scratch);
    }
    buffer.write(array);
    return buffer;
  }

  VulkanBuffer staging(NumericType type, int length) {
    VulkanBuffer buffer = new VulkanBuffer(this, type, length, VulkanBuffer.Placement.STAGING);
    synchronized (live) {
      live.add(buffer);
    }
    return buffer;
  }

  /** Copies {@code bytes} from {@code from} at {@code fromOffset} to {@code to} at {@code toOffset}, and waits. */
  void copy(VulkanBuffer from, long fromOffset, VulkanBuffer to, long toOffset, long bytes) {
    if (bytes == 0) {
      return;
    }
    ThreadContext thread = context();
    VkCommandBuffer commands = thread.commands;
    try (MemoryStack stack = MemoryStack.stackPush()) {
      begin(stack, commands);
      barrier(stack, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
      VkBufferCopy.Buffer region = VkBufferCopy.calloc(1, stack);
      region.get(0).srcOffset(fromOffset).dstOffset(toOffset).size(bytes);
      vkCmdCopyBuffer(commands, from.handle(), to.handle(), region);
      endAndSubmit(stack, thread);
    }
    checkValidation("while copying a buffer");
  }

  /** Fills {@code buffer} with the 32-bit {@code word} on the queue and waits. */
  void fill(VulkanBuffer buffer, int word) {
    ThreadContext thread = context();
    try (MemoryStack stack = MemoryStack.stackPush()) {
      begin(stack, thread.commands);
      vkCmdFillBuffer(thread.commands, buffer.handle(), 0, VK_WHOLE_SIZE, word);
      endAndSubmit(stack, thread);
    }
  }

  private static void begin(MemoryStack stack, VkCommandBuffer commands) {
    Vk.check(vkResetCommandBuffer(commands, 0), "vkResetCommandBuffer");
    Vk.check(vkBeginCommandBuffer(commands, VkCommandBufferBeginInfo.calloc(stack).sType$Default()
        .flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)), "vkBeginCommandBuffer");
  }

  /** Makes all earlier work visible to all later work and to the host, ends, submits and waits. */
  private void endAndSubmit(MemoryStack stack, ThreadContext thread) {
    VkCommandBuffer commands = thread.commands;
    barrier(stack, commands, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT
            | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT);
    Vk.check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
    submit(commands, thread.fence);
    awaitFence(thread.fence, "the GPU");
  }

  static void barrier(MemoryStack stack, VkCommandBuffer commands, int sourceStages, int sourceAccess, int targetStages,
      int targetAccess) {
    VkMemoryBarrier.Buffer memory = VkMemoryBarrier.calloc(1, stack);
    memory.get(0).sType$Default().srcAccessMask(sourceAccess).dstAccessMask(targetAccess);
    vkCmdPipelineBarrier(commands, sourceStages, targetStages, 0, memory, null, null);
  }

  void free(VulkanBuffer buffer) {
    synchronized (live) {
      live.remove(buffer);
    }
  }

  @Override
  public long dispatch(KernelSpec spec, Grid[] grids, Object[] args) {
    ThreadContext thread = context();
    VkCommandBuffer commands = thread.commands;
    try (MemoryStack stack = MemoryStack.stackPush()) {
      long pool = thread.descriptorPool(this, stack, spec.bufferCount());
      try {
        thread.faults.clear();
        begin(stack, commands);
        barrier(stack, commands, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
            VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        thread.timer.start(commands);
        recordLaunch(stack, commands, pool, thread.faults.buffer(), spec, grids, args);
        thread.timer.stop(commands);
        endAndSubmit(stack, thread);
      } finally {
        vkResetDescriptorPool(device, pool, 0);
      }
    }
    checkValidation("while running " + spec);
    thread.faults.throwIfAny(spec, args);
    return thread.timer.elapsedNanos(device);
  }

  @Override
  public BackendBatch batch() {
    return new VulkanBatch(this);
  }

  /** How many finished batches' resources wait for reuse, and how many buffers are open: for leak tests. */
  int[] resourceCounts() {
    synchronized (live) {
      return new int[] {idleBatches.size(), live.size()};
    }
  }

  /** Resources for a new batch: those of a finished one where there are, else new ones. */
  BatchResources acquireBatchResources() {
    BatchResources idle = idleBatches.pollFirst();
    return idle != null ? idle : new BatchResources(this);
  }

  /**
   * Takes back a closed batch's resources: kept for the next batch when nothing of it can still
   * run ({@code idle}), else destroyed (the caller waited for the device).
   */
  void releaseBatchResources(BatchResources resources, boolean idle) {
    if (idle && !closed) {
      resources.reset(device);
      idleBatches.addFirst(resources);
    } else {
      resources.destroy(device);
    }
  }

  /**
   * Records one launch into {@code commands}: binds the kernel's pipeline (built on first use) and
   * its buffers (a descriptor set from {@code pool}) and the fault buffer, and dispatches it, split
   * along x where the device's workgroup-count limit asks for it.
   */
  void recordLaunch(MemoryStack stack, VkCommandBuffer commands, long pool, VulkanBuffer faultBuffer, KernelSpec spec,
      Grid[] grids, Object[] args) {
    ComputePipeline pipeline;
    synchronized (pipelines) {
      pipeline = pipelines.get(spec);
      if (pipeline == null) {
        pipeline = ComputePipeline.create(device, physical, pipelineCache.handle(), spec);
        pipelines.put(spec, pipeline);
      }
    }
    Grid grid = KernelSpec.dispatchGrid(grids);
    int[] groups = {Math.ceilDiv(Math.ceilDiv(grid.x(), pipeline.elementsPerInvocation), spec.workgroup(0)),
        grid.workgroups(1, spec.workgroup(1)),
        grid.workgroups(2, spec.workgroup(2))};
    physical.checkGroupCounts(spec, groups);
    long set = writeDescriptorSet(stack, pool, pipeline, args, faultBuffer);
    ByteBuffer push = pushConstants(stack, pipeline.pushConstantBytes, spec, grid, grids, args);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, stack.longs(set), null);
    // Launches beyond the device's workgroup-count limit run as several dispatches, each told its
    // first workgroup at push-constant offset 4; the invocations are independent, so no barrier.
    int limit = physical.limits().maxGroupCount()[0];
    for (int first = 0; first < groups[0]; first += Math.min(limit, groups[0] - first)) {
      push.putInt(Integer.BYTES, first);
      vkCmdPushConstants(commands, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push);
      vkCmdDispatch(commands, Math.min(limit, groups[0] - first), groups[1], groups[2]);
    }
  }

  /** A descriptor pool for one set of a kernel of {@code buffers} buffers (and the fault buffer). */
  long createDescriptorPool(MemoryStack stack, int buffers) {
    return createDescriptorPool(stack, 1, buffers + 1);
  }

  /** A descriptor pool for {@code sets} sets of {@code descriptors} storage buffers in all. */
  long createDescriptorPool(MemoryStack stack, int sets, int descriptors) {
    VkDescriptorPoolSize.Buffer sizes = VkDescriptorPoolSize.calloc(1, stack);
    sizes.get(0).type(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(descriptors);
    LongBuffer handle = stack.mallocLong(1);
    Vk.check(vkCreateDescriptorPool(device,
        VkDescriptorPoolCreateInfo.calloc(stack).sType$Default().maxSets(sets).pPoolSizes(sizes), null, handle),
        "vkCreateDescriptorPool");
    return handle.get(0);
  }

  private long writeDescriptorSet(MemoryStack stack, long pool, ComputePipeline pipeline, Object[] args,
      VulkanBuffer faultBuffer) {
    LongBuffer handle = stack.mallocLong(1);
    Vk.check(vkAllocateDescriptorSets(device, VkDescriptorSetAllocateInfo.calloc(stack).sType$Default()
        .descriptorPool(pool).pSetLayouts(stack.longs(pipeline.setLayout)), handle), "vkAllocateDescriptorSets");
    long set = handle.get(0);
    VkWriteDescriptorSet.Buffer writes = VkWriteDescriptorSet.calloc(pipeline.buffers + 1, stack);
    int binding = 0;
    for (Object arg : args) {
      if (arg instanceof VulkanBuffer buffer) {
        describe(stack, writes.get(binding), set, binding, buffer);
        binding++;
      }
    }
    describe(stack, writes.get(binding), set, binding, faultBuffer);
    vkUpdateDescriptorSets(device, writes, null);
    return set;
  }

  private static void describe(MemoryStack stack, VkWriteDescriptorSet write, long set, int binding, VulkanBuffer buffer) {
    VkDescriptorBufferInfo.Buffer info = VkDescriptorBufferInfo.calloc(1, stack);
    info.get(0).buffer(buffer.handle()).offset(0).range(buffer.byteSize());
    write.sType$Default()
        .dstSet(set)
        .dstBinding(binding)
        .descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
        .descriptorCount(1)
        .pBufferInfo(info);
  }

  /**
   * The dispatch's grid ({@code grid}, the largest of {@code grids}) at offsets 0, 8 and 12, each
   * arm's grid for a group of several arms, then the scalar arguments (see {@link KernelSpec}).
   */
  private static ByteBuffer pushConstants(MemoryStack stack, int bytes, KernelSpec spec, Grid grid, Grid[] grids,
      Object[] args) {
    ByteBuffer push = stack.malloc(bytes);
    push.putInt(0, grid.x());
    push.putInt(8, grid.y());
    push.putInt(12, grid.z());
    if (spec.hasArmGrids()) {
      for (int arm = 0; arm < grids.length; arm++) {
        int at = spec.armGridOffset(arm);
        push.putInt(at, grids[arm].x());
        push.putInt(at + 4, grids[arm].y());
        push.putInt(at + 8, grids[arm].z());
      }
    }
    int[] offsets = spec.scalarOffsets();
    int scalar = 0;
    for (Object arg : args) {
      switch (arg) {
        case Integer value -> push.putInt(offsets[scalar++], value);
        case Float value -> push.putFloat(offsets[scalar++], value);
        case Long value -> push.putLong(offsets[scalar++], value);
        case Double value -> push.putDouble(offsets[scalar++], value);
        default -> {}
      }
    }
    return push;
  }

  /** Waits for {@code fence} (within the timeout) and resets it; {@code what} names the work in the message. */
  void awaitFence(long fence, String what) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      int result = spinOn(fence);
      if (result == VK_NOT_READY) {
        result = vkWaitForFences(device, stack.longs(fence), true, FENCE_TIMEOUT_NANOS);
      }
      if (result == VK_TIMEOUT) {
        throw new VulkanException(what + " did not finish within " + TimeUnit.NANOSECONDS.toSeconds(FENCE_TIMEOUT_NANOS)
            + " s (kiln.fenceTimeoutSeconds)");
      }
      Vk.check(result, "vkWaitForFences");
      Vk.check(vkResetFences(device, fence), "vkResetFences");
    }
  }

  /** Polls {@code fence} for at most {@link #FENCE_SPIN_NANOS}; VK_NOT_READY if it is still unsignaled. */
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

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    vkDeviceWaitIdle(device);
    synchronized (contexts) {
      contexts.forEach(thread -> thread.destroy(device));
      contexts.clear();
    }
    for (BatchResources idle; (idle = idleBatches.pollFirst()) != null; ) {
      idle.destroy(device);
    }
    List<VulkanBuffer> open;
    synchronized (live) {
      open = new ArrayList<>(live);
    }
    open.forEach(VulkanBuffer::free);
    pipelines.values().forEach(pipeline -> pipeline.destroy(device));
    pipelines.clear();
    pipelineCache.close(device);

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
