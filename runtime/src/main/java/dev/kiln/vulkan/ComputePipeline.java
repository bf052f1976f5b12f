package dev.kiln.vulkan;

import static org.lwjgl.vulkan.KHRPushDescriptor.VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
import static org.lwjgl.vulkan.VK10.*;

import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.LaunchAbi;
import dev.kiln.backend.KernelDescriptions;
import dev.kiln.backend.StartupTrace;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.util.List;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkComputePipelineCreateInfo;
import org.lwjgl.vulkan.VkDescriptorSetLayoutBinding;
import org.lwjgl.vulkan.VkDescriptorSetLayoutCreateInfo;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkPipelineLayoutCreateInfo;
import org.lwjgl.vulkan.VkPushConstantRange;
import org.lwjgl.vulkan.VkShaderModuleCreateInfo;
import org.lwjgl.vulkan.VkSpecializationInfo;
import org.lwjgl.vulkan.VkSpecializationMapEntry;

/** The Vulkan objects of one kernel on one device: built once, kept until the device closes. */
final class ComputePipeline {
  final long setLayout;
  final long layout;
  final long pipeline;
  final int buffers;
  final int pushConstantBytes;

  /** Consecutive elements along x each invocation handles (4 for a vectorized module). */
  final int elementsPerInvocation;

  /** Whether launches push their buffers' descriptors rather than bind a set. */
  final boolean pushDescriptors;

  private ComputePipeline(
      long setLayout,
      long layout,
      long pipeline,
      int buffers,
      int pushConstantBytes,
      int elementsPerInvocation,
      boolean pushDescriptors) {
    this.elementsPerInvocation = elementsPerInvocation;
    this.pushDescriptors = pushDescriptors;
    this.setLayout = setLayout;
    this.layout = layout;
    this.pipeline = pipeline;
    this.buffers = buffers;
    this.pushConstantBytes = pushConstantBytes;
  }

  /**
   * Builds the pipeline of {@code spec}; its buffers are pushed as descriptors where {@code
   * pushDescriptors} (the device has VK_KHR_push_descriptor) and they fit in a push set. Where
   * {@code checksSettled}, the checks that launches may settle are left out ({@link
   * LaunchAbi#CHECKS_SETTLED_SPEC_ID}): for launches whose values prove them unnecessary. {@code
   * sharedLengths}: the value of each of the kernel's {@code SharedLength}s, in their order.
   */
  static ComputePipeline create(
      VkDevice device,
      PhysicalDevice physical,
      long cache,
      KernelSpec spec,
      boolean pushDescriptors,
      boolean checksSettled,
      List<Integer> sharedLengths) {
    physical.checkLaunchShape(spec);
    KernelDescription kernel = KernelDescriptions.of(spec);
    physical.checkSupports(spec, kernel);
    byte[] code = physical.adapt(code(spec));
    StartupTrace.mark("first launch: kernel's module read");
    try (MemoryStack stack = MemoryStack.stackPush()) {
      LongBuffer handle = stack.mallocLong(1);

      int buffers = spec.bufferCount();
      boolean push = pushDescriptors && buffers + 1 <= PhysicalDevice.MIN_MAX_PUSH_DESCRIPTORS;
      VkDescriptorSetLayoutBinding.Buffer bindings =
          VkDescriptorSetLayoutBinding.calloc(buffers + 1, stack);
      for (int binding = 0; binding <= buffers; binding++) { // the last one is the fault buffer
        bindings
            .get(binding)
            .binding(binding)
            .descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
            .descriptorCount(1)
            .stageFlags(VK_SHADER_STAGE_COMPUTE_BIT);
      }
      Vk.check(
          vkCreateDescriptorSetLayout(
              device,
              VkDescriptorSetLayoutCreateInfo.calloc(stack)
                  .sType$Default()
                  .pBindings(bindings)
                  .flags(push ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0),
              null,
              handle),
          "vkCreateDescriptorSetLayout");
      long setLayout = handle.get(0);

      int pushBytes = spec.pushConstantBytes();
      VkPushConstantRange.Buffer range =
          VkPushConstantRange.calloc(1, stack)
              .stageFlags(VK_SHADER_STAGE_COMPUTE_BIT)
              .offset(0)
              .size(pushBytes);
      Vk.check(
          vkCreatePipelineLayout(
              device,
              VkPipelineLayoutCreateInfo.calloc(stack)
                  .sType$Default()
                  .pSetLayouts(stack.longs(setLayout))
                  .pPushConstantRanges(range),
              null,
              handle),
          "vkCreatePipelineLayout");
      long layout = handle.get(0);

      ByteBuffer words = MemoryUtil.memAlloc(code.length).put(code).flip();
      long shader;
      try {
        Vk.check(
            vkCreateShaderModule(
                device,
                VkShaderModuleCreateInfo.calloc(stack).sType$Default().pCode(words),
                null,
                handle),
            "vkCreateShaderModule(" + spec + ")");
        shader = handle.get(0);
      } finally {
        MemoryUtil.memFree(words);
      }
      VkComputePipelineCreateInfo.Buffer info = VkComputePipelineCreateInfo.calloc(1, stack);
      // the modules count loop turns, per subgroup, and fault before a driver that cuts loops cuts
      // them; they convert binary16 with the device's conversion where it keeps subnormals
      int[] flags =
          java.util.stream.IntStream.of(
                  physical.cutsLoops() ? LaunchAbi.COUNT_LOOPS_SPEC_ID : -1,
                  checksSettled ? LaunchAbi.CHECKS_SETTLED_SPEC_ID : -1,
                  physical.convertsHalvesExactly() ? LaunchAbi.HALF_CONVERSION_SPEC_ID : -1)
              .filter(id -> id >= 0)
              .toArray();
      int count = flags.length + sharedLengths.size();
      VkSpecializationInfo specialization = null;
      if (count > 0) { // each flag a boolean set true, then the lengths
        VkSpecializationMapEntry.Buffer entries = VkSpecializationMapEntry.calloc(count, stack);
        ByteBuffer data = stack.malloc(4 * count);
        for (int i = 0; i < count; i++) {
          boolean flag = i < flags.length;
          int id = flag ? flags[i] : kernel.sharedLengths().get(i - flags.length).specId();
          entries.get(i).constantID(id).offset(4 * i).size(4);
          data.putInt(4 * i, flag ? VK_TRUE : sharedLengths.get(i - flags.length));
        }
        specialization = VkSpecializationInfo.calloc(stack).pMapEntries(entries).pData(data);
      }
      VkSpecializationInfo constantsSet = specialization;
      info.get(0)
          .sType$Default()
          .layout(layout)
          .stage(
              stage ->
                  stage
                      .sType$Default()
                      .stage(VK_SHADER_STAGE_COMPUTE_BIT)
                      .module(shader)
                      .pName(stack.UTF8("main"))
                      .pSpecializationInfo(constantsSet));
      int result = vkCreateComputePipelines(device, cache, info, null, handle);
      vkDestroyShaderModule(device, shader, null);
      StartupTrace.mark("first launch: layouts, shader module, pipeline");
      Vk.check(result, "vkCreateComputePipelines(" + spec + ")");
      return new ComputePipeline(
          setLayout,
          layout,
          handle.get(0),
          buffers,
          pushBytes,
          kernel.elementsPerInvocation(),
          push);
    }
  }

  void destroy(VkDevice device) {
    vkDestroyPipeline(device, pipeline, null);
    vkDestroyPipelineLayout(device, layout, null);
    vkDestroyDescriptorSetLayout(device, setLayout, null);
  }

  /** The SPIR-V module of {@code spec}, read from beside its class. */
  static byte[] code(KernelSpec spec) {
    try (java.io.InputStream in = spec.openModule()) {
      if (in == null) {
        throw new IllegalStateException(
            "SPIR-V module '"
                + spec.module()
                + "' of kernel "
                + spec
                + " is not among the resources beside "
                + spec.owner().getName()
                + "; was the class compiled with the Kiln processor on the processor path?");
      }
      return in.readAllBytes();
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot read SPIR-V module of kernel " + spec, e);
    }
  }
}
