package dev.kiln.bench.launch;

import static org.lwjgl.system.MemoryUtil.*;
import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.KHRPushDescriptor.*;
import static org.lwjgl.vulkan.VK10.*;
import static org.lwjgl.vulkan.VK11.VK_API_VERSION_1_1;

import dev.kiln.abi.LaunchAbi;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.util.vma.VmaAllocationCreateInfo;
import org.lwjgl.util.vma.VmaAllocatorCreateInfo;
import org.lwjgl.util.vma.VmaVulkanFunctions;
import org.lwjgl.vulkan.*;

/**
 * The launch-path benchmark's hand-written twin: {@link LaunchBench}'s kernel (the SPIR-V Kiln wrote
 * for it, so that only the host path differs) launched with LWJGL and nothing else, the way a
 * careful Vulkan programmer would: one pipeline, structs made once, the fence polled. It also times
 * the three ways to give a launch its buffers (a descriptor set made once and bound per launch, a
 * push descriptor per launch, a set allocated and written per launch): host time to record one
 * launch into a batch of 10 000 and GPU time per launch there (timestamps), a barrier between
 * launches as the kernel reads and writes the same buffer.
 *
 * <p>{@code java -cp ... dev.kiln.bench.launch.RawLaunchBench [runs [csv folder]]}
 */
public final class RawLaunchBench implements AutoCloseable {
  private static final int MANY = 10_000;
  private static final String PUSH_DESCRIPTOR = "VK_KHR_push_descriptor";
  private static final String FLOAT_CONTROLS = "VK_KHR_shader_float_controls";

  private final VkInstance instance;
  private final VkDevice device;
  private final VkQueue queue;
  private final String name;
  private final boolean pushDescriptors;
  private final float nanosPerTick;
  private final long allocator;
  private final long[] buffers = new long[2];
  private final long[] allocations = new long[2];
  private final long setLayout;
  private final long pushSetLayout;
  private final long layout;
  private final long pushLayout;
  private final long pipeline;
  private final long pushPipeline;
  private final long descriptorPool;
  /** Sets for {@link Binding#SET_PER_LAUNCH}, reset before each batch. */
  private final long launchPool;
  private final long set;
  private final long commandPool;
  private final VkCommandBuffer commands;
  private final long fence;
  private final long queries;
  // Made once, used by every launch.
  private final ByteBuffer push = memAlloc(LaunchAbi.LAUNCH_BYTES);
  private final LongBuffer sets = memAllocLong(1);
  private final VkWriteDescriptorSet.Buffer writes = VkWriteDescriptorSet.calloc(2);
  private final VkDescriptorBufferInfo.Buffer infos = VkDescriptorBufferInfo.calloc(2);
  private final VkDescriptorSetAllocateInfo setAllocation = VkDescriptorSetAllocateInfo.calloc();
  private final VkMemoryBarrier.Buffer barrier = VkMemoryBarrier.calloc(1);
  private final VkSubmitInfo submit = VkSubmitInfo.calloc();
  private final VkCommandBufferBeginInfo begin = VkCommandBufferBeginInfo.calloc();
  private final PointerBuffer submitted = memAllocPointer(1);
  private final LongBuffer ticks = memAllocLong(2);

  private RawLaunchBench(byte[] spirv) {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      PointerBuffer pointer = stack.mallocPointer(1);
      LongBuffer handle = stack.mallocLong(1);
      VkInstanceCreateInfo instanceInfo = VkInstanceCreateInfo.calloc(stack).sType$Default()
          .pApplicationInfo(VkApplicationInfo.calloc(stack).sType$Default().apiVersion(VK_API_VERSION_1_1));
      check(vkCreateInstance(instanceInfo, null, pointer));
      instance = new VkInstance(pointer.get(0), instanceInfo);

      IntBuffer count = stack.mallocInt(1);
      check(vkEnumeratePhysicalDevices(instance, count, null));
      PointerBuffer physicals = stack.mallocPointer(count.get(0));
      check(vkEnumeratePhysicalDevices(instance, count, physicals));
      VkPhysicalDevice physical = null;
      VkPhysicalDeviceProperties properties = VkPhysicalDeviceProperties.calloc(stack);
      for (int i = 0; i < physicals.capacity() && physical == null; i++) { // a discrete GPU first
        VkPhysicalDevice candidate = new VkPhysicalDevice(physicals.get(i), instance);
        vkGetPhysicalDeviceProperties(candidate, properties);
        if (properties.deviceType() == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU || i == physicals.capacity() - 1) {
          physical = candidate;
        }
      }
      name = properties.deviceNameString();
      nanosPerTick = properties.limits().timestampPeriod();
      int family = computeFamily(stack, physical);
      List<String> extensions = extensions(stack, physical);
      pushDescriptors = extensions.contains(PUSH_DESCRIPTOR);
      List<String> enabled = new ArrayList<>();
      for (String extension : List.of(PUSH_DESCRIPTOR, FLOAT_CONTROLS)) {
        if (extensions.contains(extension)) {
          enabled.add(extension);
        }
      }
      PointerBuffer names = stack.mallocPointer(enabled.size());
      enabled.forEach(extension -> names.put(stack.UTF8(extension)));
      VkDeviceQueueCreateInfo.Buffer queues = VkDeviceQueueCreateInfo.calloc(1, stack);
      queues.get(0).sType$Default().queueFamilyIndex(family).pQueuePriorities(stack.floats(1f));
      VkDeviceCreateInfo deviceInfo = VkDeviceCreateInfo.calloc(stack).sType$Default().pQueueCreateInfos(queues)
          .ppEnabledExtensionNames(names.flip());
      check(vkCreateDevice(physical, deviceInfo, null, pointer));
      device = new VkDevice(pointer.get(0), physical, deviceInfo, VK_API_VERSION_1_1);
      vkGetDeviceQueue(device, family, 0, pointer);
      queue = new VkQueue(pointer.get(0), device);

      check(vmaCreateAllocator(VmaAllocatorCreateInfo.calloc(stack).physicalDevice(physical).device(device)
          .instance(instance).pVulkanFunctions(VmaVulkanFunctions.calloc(stack).set(instance, device))
          .vulkanApiVersion(VK_API_VERSION_1_1), pointer));
      allocator = pointer.get(0);
      long[] sizes = {65 * Integer.BYTES, (LaunchAbi.FAULT_REGIONS_AT + 1) * Integer.BYTES}; // the data (one element more, as Kiln binds) and the faults
      for (int b = 0; b < 2; b++) {
        PointerBuffer allocation = stack.mallocPointer(1);
        check(vmaCreateBuffer(allocator, VkBufferCreateInfo.calloc(stack).sType$Default().size(sizes[b])
            .usage(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT).sharingMode(VK_SHARING_MODE_EXCLUSIVE),
            VmaAllocationCreateInfo.calloc(stack).usage(VMA_MEMORY_USAGE_AUTO_PREFER_DEVICE)
                .flags(VMA_ALLOCATION_CREATE_HOST_ACCESS_RANDOM_BIT | VMA_ALLOCATION_CREATE_MAPPED_BIT),
            handle, allocation, null));
        buffers[b] = handle.get(0);
        allocations[b] = allocation.get(0);
        infos.get(b).buffer(buffers[b]).offset(0).range(sizes[b]);
        writes.get(b).sType$Default().dstBinding(b).descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(1)
            .pBufferInfo(VkDescriptorBufferInfo.create(infos.address(b), 1));
      }

      setLayout = setLayout(stack, 0);
      pushSetLayout = pushDescriptors ? setLayout(stack, VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR) : 0;
      layout = pipelineLayout(stack, setLayout);
      pushLayout = pushDescriptors ? pipelineLayout(stack, pushSetLayout) : 0;
      ByteBuffer code = memAlloc(spirv.length).put(spirv).flip();
      check(vkCreateShaderModule(device, VkShaderModuleCreateInfo.calloc(stack).sType$Default().pCode(code), null, handle));
      long shader = handle.get(0);
      memFree(code);
      pipeline = pipeline(stack, shader, layout);
      pushPipeline = pushDescriptors ? pipeline(stack, shader, pushLayout) : 0;
      vkDestroyShaderModule(device, shader, null);

      descriptorPool = descriptorPool(stack, 1);
      launchPool = descriptorPool(stack, MANY);
      check(vkAllocateDescriptorSets(device, VkDescriptorSetAllocateInfo.calloc(stack).sType$Default()
          .descriptorPool(descriptorPool).pSetLayouts(stack.longs(setLayout)), handle));
      set = handle.get(0);
      writes.get(0).dstSet(set);
      writes.get(1).dstSet(set);
      vkUpdateDescriptorSets(device, writes, null);

      check(vkCreateCommandPool(device, VkCommandPoolCreateInfo.calloc(stack).sType$Default()
          .flags(VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT).queueFamilyIndex(family), null, handle));
      commandPool = handle.get(0);
      check(vkAllocateCommandBuffers(device, VkCommandBufferAllocateInfo.calloc(stack).sType$Default()
          .commandPool(commandPool).level(VK_COMMAND_BUFFER_LEVEL_PRIMARY).commandBufferCount(1), pointer));
      commands = new VkCommandBuffer(pointer.get(0), device);
      check(vkCreateFence(device, VkFenceCreateInfo.calloc(stack).sType$Default(), null, handle));
      fence = handle.get(0);
      check(vkCreateQueryPool(device, VkQueryPoolCreateInfo.calloc(stack).sType$Default()
          .queryType(VK_QUERY_TYPE_TIMESTAMP).queryCount(2), null, handle));
      queries = handle.get(0);
    }
    push.putInt(LaunchAbi.GRID_X, 64).putInt(LaunchAbi.FIRST_GROUP, 0).putInt(LaunchAbi.GRID_Y, 1).putInt(LaunchAbi.GRID_Z, 1)
        .putInt(LaunchAbi.FAULT_REGION, 0);
    setAllocation.sType$Default().descriptorPool(launchPool).pSetLayouts(memAllocLong(1).put(0, setLayout));
    barrier.get(0).sType$Default();
    submitted.put(0, commands);
    submit.sType$Default().pCommandBuffers(submitted);
    begin.sType$Default().flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  }

  /** How a launch gets its buffers. */
  enum Binding { BOUND_SET, PUSH_DESCRIPTOR, SET_PER_LAUNCH }

  public static void main(String[] args) throws IOException {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    byte[] spirv;
    try (InputStream in = LaunchBench.class.getResourceAsStream("LaunchBench.bump.spv")) {
      spirv = in.readAllBytes();
    }
    LaunchTable table = new LaunchTable("raw", args);
    try (RawLaunchBench bench = new RawLaunchBench(spirv)) {
      System.out.printf("raw LWJGL on %s: median host time of %d runs, fence polled%n", bench.name, runs);
      bench.recordSingle(Binding.BOUND_SET);
      table.row("single launch (pre-recorded)", median(runs, bench::submitAndPoll) / 1e3, "");
      table.row("single launch", median(runs, () -> {
        bench.recordSingle(Binding.BOUND_SET);
        bench.submitAndPoll();
      }) / 1e3, "recorded each time");
      for (int launches : new int[] {1, 10, 100}) {
        table.row("batch of " + launches, median(runs / launches * 10 + 20, () -> {
          bench.recordBatch(launches, Binding.BOUND_SET, false);
          bench.submitAndPoll();
        }) / 1e3, "");
      }
      for (Binding binding : Binding.values()) {
        if (binding == Binding.PUSH_DESCRIPTOR && !bench.pushDescriptors) {
          System.out.println(binding + ": the device has no " + PUSH_DESCRIPTOR);
          continue;
        }
        long[] gpu = new long[1];
        double host = LaunchTable.median(20, 2_000_000_000L, () -> {
          long start = System.nanoTime();
          bench.recordBatch(MANY, binding, true);
          long recorded = System.nanoTime() - start;
          bench.submitAndPoll();
          gpu[0] = bench.gpuNanos();
          return recorded;
        }) / 1e3 / MANY;
        double device = LaunchTable.median(20, 2_000_000_000L, () -> {
          bench.recordBatch(MANY, binding, true);
          bench.submitAndPoll();
          return bench.gpuNanos();
        }) / 1e3 / MANY;
        String how = binding.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        table.row("recording one launch of " + MANY + " (" + how + ")", host, "");
        table.row("GPU time per launch there (" + how + ")", device, "");
      }
    }
  }

  /** One launch with barriers to and from the host, into the command buffer. */
  private void recordSingle(Binding binding) {
    check(vkResetCommandBuffer(commands, 0));
    check(vkBeginCommandBuffer(commands, begin));
    barrier(VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    launch(binding);
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
        VK_ACCESS_HOST_READ_BIT);
    check(vkEndCommandBuffer(commands));
  }

  /** {@code launches} launches, a barrier between each two, timestamps around them if {@code timed}. */
  private void recordBatch(int launches, Binding binding, boolean timed) {
    check(vkResetCommandBuffer(commands, 0));
    if (binding == Binding.SET_PER_LAUNCH) {
      check(vkResetDescriptorPool(device, launchPool, 0));
    }
    check(vkBeginCommandBuffer(commands, begin));
    if (timed) {
      vkCmdResetQueryPool(commands, queries, 0, 2);
      vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, 0);
    }
    barrier(VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    for (int k = 0; k < launches; k++) {
      if (k > 0) {
        barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
      }
      launch(binding);
    }
    if (timed) {
      vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 1);
    }
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
        VK_ACCESS_HOST_READ_BIT);
    check(vkEndCommandBuffer(commands));
  }

  private void launch(Binding binding) {
    switch (binding) {
      case BOUND_SET -> {
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        sets.put(0, set);
        vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, sets, null);
        vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push);
      }
      case PUSH_DESCRIPTOR -> {
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pushPipeline);
        vkCmdPushDescriptorSetKHR(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pushLayout, 0, writes);
        vkCmdPushConstants(commands, pushLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push);
      }
      case SET_PER_LAUNCH -> {
        check(vkAllocateDescriptorSets(device, setAllocation, sets));
        writes.get(0).dstSet(sets.get(0));
        writes.get(1).dstSet(sets.get(0));
        vkUpdateDescriptorSets(device, writes, null);
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, sets, null);
        vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push);
      }
    }
    vkCmdDispatch(commands, 1, 1, 1);
  }

  private void barrier(int fromStages, int fromAccess, int toStages, int toAccess) {
    barrier.get(0).srcAccessMask(fromAccess).dstAccessMask(toAccess);
    vkCmdPipelineBarrier(commands, fromStages, toStages, 0, barrier, null, null);
  }

  /** Submits the command buffer and polls its fence until it signals. */
  private void submitAndPoll() {
    check(vkQueueSubmit(queue, submit, fence));
    int status;
    while ((status = vkGetFenceStatus(device, fence)) == VK_NOT_READY) {
      Thread.onSpinWait();
    }
    check(status);
    check(vkResetFences(device, fence));
  }

  private long gpuNanos() {
    check(vkGetQueryPoolResults(device, queries, 0, 2, ticks, Long.BYTES, VK_QUERY_RESULT_64_BIT));
    return Math.round((ticks.get(1) - ticks.get(0)) * (double) nanosPerTick);
  }

  /** The median host time of {@code runs} runs of {@code work}, after two seconds of it. */
  private static long median(int runs, Runnable work) {
    return LaunchTable.median(runs, 2_000_000_000L, () -> {
      long start = System.nanoTime();
      work.run();
      return System.nanoTime() - start;
    });
  }

  private long descriptorPool(MemoryStack stack, int sets) {
    VkDescriptorPoolSize.Buffer sizes = VkDescriptorPoolSize.calloc(1, stack);
    sizes.get(0).type(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(2 * sets);
    LongBuffer handle = stack.mallocLong(1);
    check(vkCreateDescriptorPool(device, VkDescriptorPoolCreateInfo.calloc(stack).sType$Default().maxSets(sets)
        .pPoolSizes(sizes), null, handle));
    return handle.get(0);
  }

  private long setLayout(MemoryStack stack, int flags) {
    VkDescriptorSetLayoutBinding.Buffer bindings = VkDescriptorSetLayoutBinding.calloc(2, stack);
    for (int b = 0; b < 2; b++) {
      bindings.get(b).binding(b).descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(1)
          .stageFlags(VK_SHADER_STAGE_COMPUTE_BIT);
    }
    LongBuffer handle = stack.mallocLong(1);
    check(vkCreateDescriptorSetLayout(device, VkDescriptorSetLayoutCreateInfo.calloc(stack).sType$Default().flags(flags)
        .pBindings(bindings), null, handle));
    return handle.get(0);
  }

  private long pipelineLayout(MemoryStack stack, long setLayout) {
    LongBuffer handle = stack.mallocLong(1);
    check(vkCreatePipelineLayout(device, VkPipelineLayoutCreateInfo.calloc(stack).sType$Default()
        .pSetLayouts(stack.longs(setLayout)).pPushConstantRanges(VkPushConstantRange.calloc(1, stack)
            .stageFlags(VK_SHADER_STAGE_COMPUTE_BIT).offset(0).size(LaunchAbi.LAUNCH_BYTES)), null, handle));
    return handle.get(0);
  }

  private long pipeline(MemoryStack stack, long shader, long layout) {
    VkComputePipelineCreateInfo.Buffer info = VkComputePipelineCreateInfo.calloc(1, stack);
    info.get(0).sType$Default().layout(layout)
        .stage(stage -> stage.sType$Default().stage(VK_SHADER_STAGE_COMPUTE_BIT).module(shader).pName(stack.UTF8("main")));
    LongBuffer handle = stack.mallocLong(1);
    check(vkCreateComputePipelines(device, VK_NULL_HANDLE, info, null, handle));
    return handle.get(0);
  }

  private static int computeFamily(MemoryStack stack, VkPhysicalDevice physical) {
    IntBuffer count = stack.mallocInt(1);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, count, null);
    VkQueueFamilyProperties.Buffer families = VkQueueFamilyProperties.malloc(count.get(0), stack);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, count, families);
    for (int f = 0; f < families.capacity(); f++) {
      if ((families.get(f).queueFlags() & VK_QUEUE_COMPUTE_BIT) != 0) {
        return f;
      }
    }
    throw new IllegalStateException("no compute queue");
  }

  private static List<String> extensions(MemoryStack stack, VkPhysicalDevice physical) {
    IntBuffer count = stack.mallocInt(1);
    check(vkEnumerateDeviceExtensionProperties(physical, (ByteBuffer) null, count, null));
    VkExtensionProperties.Buffer properties = VkExtensionProperties.malloc(count.get(0), stack);
    check(vkEnumerateDeviceExtensionProperties(physical, (ByteBuffer) null, count, properties));
    return properties.stream().map(VkExtensionProperties::extensionNameString).toList();
  }

  private static void check(int result) {
    if (result != VK_SUCCESS) {
      throw new IllegalStateException("Vulkan error " + result);
    }
  }

  @Override
  public void close() {
    vkDeviceWaitIdle(device);
    vkDestroyQueryPool(device, queries, null);
    vkDestroyFence(device, fence, null);
    vkDestroyCommandPool(device, commandPool, null);
    vkDestroyDescriptorPool(device, descriptorPool, null);
    vkDestroyDescriptorPool(device, launchPool, null);
    for (long p : new long[] {pipeline, pushPipeline}) {
      vkDestroyPipeline(device, p, null);
    }
    for (long l : new long[] {layout, pushLayout}) {
      vkDestroyPipelineLayout(device, l, null);
    }
    for (long l : new long[] {setLayout, pushSetLayout}) {
      vkDestroyDescriptorSetLayout(device, l, null);
    }
    for (int b = 0; b < 2; b++) {
      vmaDestroyBuffer(allocator, buffers[b], allocations[b]);
    }
    vmaDestroyAllocator(allocator);
    vkDestroyDevice(device, null);
    vkDestroyInstance(instance, null);
    memFree(setAllocation.pSetLayouts());
    for (org.lwjgl.system.NativeResource struct : List.of(writes, infos, setAllocation, barrier, submit, begin)) {
      struct.free();
    }
    memFree(push);
    memFree(sets);
    memFree(submitted);
    memFree(ticks);
  }
}
