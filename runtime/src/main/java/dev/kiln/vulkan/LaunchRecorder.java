package dev.kiln.vulkan;

import static org.lwjgl.system.MemoryUtil.*;
import static org.lwjgl.vulkan.KHRPushDescriptor.nvkCmdPushDescriptorSetKHR;
import static org.lwjgl.vulkan.VK10.*;

import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.LaunchAbi;
import dev.kiln.backend.Launch;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBufferCopy;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkCommandBufferAllocateInfo;
import org.lwjgl.vulkan.VkCommandBufferBeginInfo;
import org.lwjgl.vulkan.VkCommandPoolCreateInfo;
import org.lwjgl.vulkan.VkDescriptorBufferInfo;
import org.lwjgl.vulkan.VkDescriptorSetAllocateInfo;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkFenceCreateInfo;
import org.lwjgl.vulkan.VkMemoryBarrier;
import org.lwjgl.vulkan.VkSubmitInfo;
import org.lwjgl.vulkan.VkWriteDescriptorSet;

/**
 * A command buffer with what it takes to record launches into it, submit it and wait for it: its
 * command pool, a fence, a fault buffer, GPU timestamps, descriptor pools for devices without push
 * descriptors, and the native structs of a launch (descriptor writes, push constants, barrier,
 * submit info) made once. Recording a launch allocates nothing: it fills those structs and calls
 * Vulkan with their addresses. Each launch, transfer and batch takes one from the device's idle
 * ones ({@link VulkanBackend#takeRecorder}) and gives it back when it is done.
 */
final class LaunchRecorder {
  private final VulkanBackend backend;
  private final VkDevice device;
  private final long commandPool;
  final VkCommandBuffer commands;

  /** The fence, in native memory: waiting and resetting pass it by address. */
  private final LongBuffer fence = memAllocLong(1);

  final LaunchFaults faults;
  final GpuTimer timer;
  private final DescriptorSets sets;

  /** The copies of a launch on Java arrays recorded here. */
  final ArrayCopies arrayCopies;

  private final ByteBuffer push;
  private VkWriteDescriptorSet.Buffer writes;
  private VkDescriptorBufferInfo.Buffer infos;
  private final VkDescriptorSetAllocateInfo setAllocation = VkDescriptorSetAllocateInfo.calloc();
  private final LongBuffer setLayout = memAllocLong(1);
  private final LongBuffer set = memAllocLong(1);
  private final VkMemoryBarrier.Buffer barrier = VkMemoryBarrier.calloc(1);
  private final VkBufferCopy.Buffer region = VkBufferCopy.calloc(1);
  private final VkCommandBufferBeginInfo begin = VkCommandBufferBeginInfo.calloc();
  private final PointerBuffer submitted = memAllocPointer(1);
  private final VkSubmitInfo submit = VkSubmitInfo.calloc();

  /** The pipeline bound last since {@link #begin()}, so that a run of one kernel binds it once. */
  private long boundPipeline;

  /**
   * The buffer descriptions and push constants the bound pipeline's last launch bound (a copy, and
   * its bytes; -1 for none): a launch that would bind the same again skips the call, as descriptors
   * and push constants stay bound until another pipeline is.
   */
  private ByteBuffer boundInfos;

  private int boundInfoBytes = -1;
  private final ByteBuffer pushed;
  private int pushedBytes = -1;

  LaunchRecorder(VulkanBackend backend) {
    this.backend = backend;
    device = backend.device();
    try (MemoryStack stack = MemoryStack.stackPush()) {
      LongBuffer handle = stack.mallocLong(1);
      Vk.check(
          vkCreateCommandPool(
              device,
              VkCommandPoolCreateInfo.calloc(stack)
                  .sType$Default()
                  .flags(VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT)
                  .queueFamilyIndex(backend.queueFamily()),
              null,
              handle),
          "vkCreateCommandPool");
      commandPool = handle.get(0);
      PointerBuffer pointer = stack.mallocPointer(1);
      Vk.check(
          vkAllocateCommandBuffers(
              device,
              VkCommandBufferAllocateInfo.calloc(stack)
                  .sType$Default()
                  .commandPool(commandPool)
                  .level(VK_COMMAND_BUFFER_LEVEL_PRIMARY)
                  .commandBufferCount(1),
              pointer),
          "vkAllocateCommandBuffers");
      commands = new VkCommandBuffer(pointer.get(0), device);
      Vk.check(
          vkCreateFence(device, VkFenceCreateInfo.calloc(stack).sType$Default(), null, handle),
          "vkCreateFence");
      fence.put(0, handle.get(0));
    }
    faults = new LaunchFaults(backend);
    timer = GpuTimer.create(device, backend.physical());
    sets = new DescriptorSets(backend);
    arrayCopies = new ArrayCopies(backend);
    push = memAlloc(backend.physical().limits().maxPushConstantsSize());
    pushed = memAlloc(push.capacity());
    growDescriptorWrites(8);
    setAllocation.sType$Default().pSetLayouts(setLayout);
    barrier.get(0).sType$Default();
    begin.sType$Default();
    submitted.put(0, commands);
    submit.sType$Default().pCommandBuffers(submitted);
  }

  /**
   * Starts recording anew: the command buffer (keeping its memory: resetting the pool instead made
   * batches of 100 launches ~8 % slower on the H200) and the descriptor sets of the last recording
   * are reset.
   */
  void begin() {
    begin(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  }

  /**
   * As {@link #begin()}, for a recording submitted more than once, several times in one submission
   * too ({@link #submit(int)}).
   */
  void beginReusable() {
    begin(VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
  }

  private void begin(int usage) {
    this.begin.flags(usage);
    Vk.check(vkResetCommandBuffer(commands, 0), "vkResetCommandBuffer");
    sets.reset();
    boundPipeline = VK_NULL_HANDLE;
    boundInfoBytes = -1;
    pushedBytes = -1;
    Vk.check(vkBeginCommandBuffer(commands, begin), "vkBeginCommandBuffer");
  }

  /**
   * A global memory barrier from the {@code source} stages' accesses to the {@code target} ones'.
   */
  void barrier(int sourceStages, int sourceAccess, int targetStages, int targetAccess) {
    VkMemoryBarrier.nsrcAccessMask(barrier.address(), sourceAccess);
    VkMemoryBarrier.ndstAccessMask(barrier.address(), targetAccess);
    vkCmdPipelineBarrier(commands, sourceStages, targetStages, 0, barrier, null, null);
  }

  /** Makes the host's and transfers' writes visible to kernels. */
  void barrierBeforeLaunches() {
    barrier(
        VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
        VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  }

  /** Makes one launch's writes visible to the next launches. */
  void barrierBetweenLaunches() {
    barrier(
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_WRITE_BIT,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  }

  /** Makes the kernels' writes visible to copies after them. */
  void barrierBeforeCopies() {
    barrier(
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_WRITE_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_ACCESS_TRANSFER_READ_BIT);
  }

  /** Records a copy of the first {@code bytes} of {@code from} to the start of {@code to}. */
  void copy(VulkanBuffer from, VulkanBuffer to, long bytes) {
    copy(from, 0, to, 0, bytes);
  }

  /**
   * Records a copy of {@code bytes} from {@code from} at {@code fromOffset} to {@code to} at {@code
   * toOffset}.
   */
  void copy(VulkanBuffer from, long fromOffset, VulkanBuffer to, long toOffset, long bytes) {
    if (bytes == 0) {
      return;
    }
    long at = region.address();
    VkBufferCopy.nsrcOffset(at, fromOffset);
    VkBufferCopy.ndstOffset(at, toOffset);
    VkBufferCopy.nsize(at, bytes);
    nvkCmdCopyBuffer(commands, from.handle(), to.handle(), 1, at);
  }

  /** Makes all earlier work visible to all later work and to the host, and ends the recording. */
  void end() {
    barrier(
        VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT
            | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT
            | VK_PIPELINE_STAGE_HOST_BIT,
        VK_ACCESS_TRANSFER_READ_BIT
            | VK_ACCESS_TRANSFER_WRITE_BIT
            | VK_ACCESS_SHADER_READ_BIT
            | VK_ACCESS_SHADER_WRITE_BIT
            | VK_ACCESS_HOST_READ_BIT);
    Vk.check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
  }

  /** Submits the recording; {@link #await} waits for it. */
  void submit() {
    backend.submit(submit, fence.get(0));
  }

  /**
   * Submits the recorded command buffer {@code runs} times in one submission, each run after the
   * one before (the buffer ends with a barrier that makes its writes visible to the launches after
   * it); the fence signals after the last.
   */
  void submit(int runs) {
    if (runs == 1) {
      submit();
      return;
    }
    PointerBuffer copies = memAllocPointer(runs);
    try {
      for (int run = 0; run < runs; run++) {
        copies.put(run, commands);
      }
      submit.pCommandBuffers(copies);
      backend.submit(submit, fence.get(0));
    } finally {
      submit.pCommandBuffers(submitted);
      memFree(copies);
    }
  }

  /**
   * Waits for the submitted recording (see {@link VulkanBackend#awaitFence}); {@code work} names it
   * in messages.
   */
  void await(Object work) {
    backend.awaitFence(memAddress(fence), work);
  }

  /**
   * Records {@code launch} of {@code pipeline}: takes its fault regions (one, or a fused group's
   * one per arm), binds the pipeline, the launch's buffers and the fault buffer (a push descriptor,
   * or a set from the pools) and its push constants, each unless the last launch bound the same,
   * and dispatches its workgroups along x (a part of a split launch's: some of them), split where
   * the device's workgroup-count limit asks for it; each part is told its first workgroup at {@link
   * LaunchAbi#FIRST_GROUP} (the invocations are independent, so the parts need no barrier between
   * them). A launch that differs from the last one of its pipeline only in its fault region (a
   * batch's launches of one kernel on the same arguments) pushes that word alone.
   */
  void record(ComputePipeline pipeline, Launch launch) {
    KernelSpec spec = launch.spec();
    int region = faults.take(spec);
    int groupsX =
        Math.ceilDiv(
            Math.ceilDiv(launch.dispatchSize(0), pipeline.elementsPerInvocation),
            spec.workgroup(0));
    int groupsY = launch.workgroups(1);
    int groupsZ = launch.workgroups(2);
    backend.physical().checkGroupCounts(spec, groupsY, groupsZ);
    if (pipeline.pipeline != boundPipeline) {
      vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
      boundPipeline = pipeline.pipeline;
      boundInfoBytes = -1;
      pushedBytes = -1;
    }
    bindBuffers(pipeline, launch, faults.buffer(region));
    long constants = memAddress(push);
    writePushConstants(constants, launch, LaunchFaults.indexInBuffer(region));
    int limit = backend.physical().limits().maxGroupCount()[0];
    int idsPerGroup = spec.workgroup(0) * pipeline.elementsPerInvocation;
    int firstGroup = launch.firstGroup(idsPerGroup); // a part of a split launch runs some of them
    int endGroup = launch.endGroup(idsPerGroup, groupsX);
    if (endGroup - firstGroup <= limit) {
      memPutInt(constants + LaunchAbi.FIRST_GROUP, firstGroup);
      pushChanged(pipeline, constants);
      vkCmdDispatch(commands, endGroup - firstGroup, groupsY, groupsZ);
      return;
    }
    for (int first = firstGroup; first < endGroup; first += Math.min(limit, endGroup - first)) {
      memPutInt(constants + LaunchAbi.FIRST_GROUP, first);
      nvkCmdPushConstants(
          commands,
          pipeline.layout,
          VK_SHADER_STAGE_COMPUTE_BIT,
          0,
          pipeline.pushConstantBytes,
          constants);
      vkCmdDispatch(commands, Math.min(limit, endGroup - first), groupsY, groupsZ);
    }
    pushedBytes = -1;
  }

  /**
   * Pushes the constants at {@code constants} where they differ from those pushed last: all of
   * them, or the fault region's word alone where only it differs.
   */
  private void pushChanged(ComputePipeline pipeline, long constants) {
    int bytes = pipeline.pushConstantBytes;
    long last = memAddress(pushed);
    int afterRegion = LaunchAbi.FAULT_REGION + Integer.BYTES;
    if (bytes == pushedBytes
        && sameBytes(constants, last, LaunchAbi.FAULT_REGION)
        && sameBytes(constants + afterRegion, last + afterRegion, bytes - afterRegion)) {
      if (memGetInt(constants + LaunchAbi.FAULT_REGION)
          != memGetInt(last + LaunchAbi.FAULT_REGION)) {
        nvkCmdPushConstants(
            commands,
            pipeline.layout,
            VK_SHADER_STAGE_COMPUTE_BIT,
            LaunchAbi.FAULT_REGION,
            Integer.BYTES,
            constants + LaunchAbi.FAULT_REGION);
        memPutInt(last + LaunchAbi.FAULT_REGION, memGetInt(constants + LaunchAbi.FAULT_REGION));
      }
      return;
    }
    nvkCmdPushConstants(
        commands, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, bytes, constants);
    memCopy(constants, last, bytes);
    pushedBytes = bytes;
  }

  private static boolean sameBytes(long a, long b, int bytes) {
    int at = 0;
    for (; at + Long.BYTES <= bytes; at += Long.BYTES) {
      if (memGetLong(a + at) != memGetLong(b + at)) {
        return false;
      }
    }
    for (; at < bytes; at += Integer.BYTES) {
      if (memGetInt(a + at) != memGetInt(b + at)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Describes the launch's buffers, then {@code faultBuffer}, at bindings 0, 1, … and binds them.
   */
  private void bindBuffers(ComputePipeline pipeline, Launch launch, VulkanBuffer faultBuffer) {
    int count = pipeline.buffers + 1;
    if (count > writes.capacity()) {
      growDescriptorWrites(count);
    }
    KernelSpec spec = launch.spec();
    for (int param = 0; param < spec.params().size(); param++) {
      if (launch.arg(param) instanceof VulkanBuffer buffer) {
        describe(spec.slot(param), buffer);
      }
    }
    describe(pipeline.buffers, faultBuffer);
    int bytes = count * VkDescriptorBufferInfo.SIZEOF;
    if (bytes == boundInfoBytes && sameBytes(infos.address(), memAddress(boundInfos), bytes)) {
      return;
    }
    memCopy(infos.address(), memAddress(boundInfos), bytes);
    boundInfoBytes = bytes;
    if (pipeline.pushDescriptors) {
      nvkCmdPushDescriptorSetKHR(
          commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, count, writes.address());
      return;
    }
    setLayout.put(0, pipeline.setLayout);
    setAllocation.descriptorPool(sets.poolFor(count));
    Vk.check(
        nvkAllocateDescriptorSets(device, setAllocation.address(), memAddress(set)),
        "vkAllocateDescriptorSets");
    for (int binding = 0; binding < count; binding++) {
      VkWriteDescriptorSet.ndstSet(writes.address(binding), set.get(0));
    }
    nvkUpdateDescriptorSets(device, count, writes.address(), 0, NULL);
    nvkCmdBindDescriptorSets(
        commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, memAddress(set), 0, NULL);
  }

  private void describe(int binding, VulkanBuffer buffer) {
    long info = infos.address(binding);
    VkDescriptorBufferInfo.nbuffer(info, buffer.handle());
    VkDescriptorBufferInfo.nrange(info, buffer.byteSize());
  }

  /**
   * The dispatch's grid (the largest of the arms'), its fault region, each arm's grid for a group
   * of several arms, then the scalar arguments, each at its {@link KernelSpec#slot}.
   */
  private static void writePushConstants(long at, Launch launch, int faultRegion) {
    KernelSpec spec = launch.spec();
    memPutInt(at + LaunchAbi.GRID_X, launch.dispatchSize(0));
    memPutInt(at + LaunchAbi.GRID_Y, launch.dispatchSize(1));
    memPutInt(at + LaunchAbi.GRID_Z, launch.dispatchSize(2));
    memPutInt(at + LaunchAbi.FAULT_REGION, faultRegion);
    if (spec.hasArmGrids()) {
      for (int arm = 0; arm < spec.gridCount(); arm++) {
        long grid = at + spec.armGridOffset(arm);
        memPutInt(grid, launch.gridSize(arm, 0));
        memPutInt(grid + 4, launch.gridSize(arm, 1));
        memPutInt(grid + 8, launch.gridSize(arm, 2));
      }
    }
    for (int param = 0; param < spec.params().size(); param++) {
      long slot = at + spec.slot(param);
      switch (launch.arg(param)) {
        case Integer value -> memPutInt(slot, value);
        case Float value -> memPutFloat(slot, value);
        case Long value -> memPutLong(slot, value);
        case Double value -> memPutDouble(slot, value);
        default -> {} // a buffer
      }
    }
  }

  /** Room for {@code count} descriptor writes, each pointing at its own buffer info. */
  private void growDescriptorWrites(int count) {
    if (writes != null) {
      writes.free();
      infos.free();
      memFree(boundInfos);
    }
    writes = VkWriteDescriptorSet.calloc(count);
    infos = VkDescriptorBufferInfo.calloc(count);
    boundInfos = memAlloc(count * VkDescriptorBufferInfo.SIZEOF);
    boundInfoBytes = -1;
    for (int binding = 0; binding < count; binding++) {
      writes
          .get(binding)
          .sType$Default()
          .dstBinding(binding)
          .descriptorCount(1)
          .descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
          .pBufferInfo(VkDescriptorBufferInfo.create(infos.address(binding), 1));
    }
  }

  void destroy() {
    sets.destroy();
    faults.free();
    timer.destroy(device);
    vkDestroyFence(device, fence.get(0), null);
    vkDestroyCommandPool(device, commandPool, null);
    writes.free();
    infos.free();
    setAllocation.free();
    barrier.free();
    region.free();
    begin.free();
    submit.free();
    memFree(push);
    memFree(pushed);
    memFree(boundInfos);
    memFree(setLayout);
    memFree(set);
    memFree(submitted);
    memFree(fence);
  }
}
