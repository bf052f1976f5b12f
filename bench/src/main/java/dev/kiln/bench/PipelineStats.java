package dev.kiln.bench;

import static org.lwjgl.system.MemoryStack.stackPush;
import static org.lwjgl.vulkan.KHRPipelineExecutableProperties.VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
import static org.lwjgl.vulkan.KHRPipelineExecutableProperties.VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR;
import static org.lwjgl.vulkan.KHRPipelineExecutableProperties.VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
import static org.lwjgl.vulkan.KHRPipelineExecutableProperties.vkGetPipelineExecutableInternalRepresentationsKHR;
import static org.lwjgl.vulkan.KHRPipelineExecutableProperties.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
import static org.lwjgl.vulkan.KHRPipelineExecutableProperties.vkGetPipelineExecutablePropertiesKHR;
import static org.lwjgl.vulkan.KHRPipelineExecutableProperties.vkGetPipelineExecutableStatisticsKHR;
import static org.lwjgl.vulkan.VK13.*;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.vulkan.VkApplicationInfo;
import org.lwjgl.vulkan.VkComputePipelineCreateInfo;
import org.lwjgl.vulkan.VkDescriptorSetLayoutBinding;
import org.lwjgl.vulkan.VkDescriptorSetLayoutCreateInfo;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkDeviceCreateInfo;
import org.lwjgl.vulkan.VkDeviceQueueCreateInfo;
import org.lwjgl.vulkan.VkExtensionProperties;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkInstanceCreateInfo;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceFeatures2;
import org.lwjgl.vulkan.VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceVulkan11Features;
import org.lwjgl.vulkan.VkPhysicalDeviceVulkan12Features;
import org.lwjgl.vulkan.VkPhysicalDeviceVulkan13Features;
import org.lwjgl.vulkan.VkPipelineExecutableInfoKHR;
import org.lwjgl.vulkan.VkPipelineExecutableInternalRepresentationKHR;
import org.lwjgl.vulkan.VkPipelineExecutablePropertiesKHR;
import org.lwjgl.vulkan.VkPipelineExecutableStatisticKHR;
import org.lwjgl.vulkan.VkPipelineInfoKHR;
import org.lwjgl.vulkan.VkPipelineLayoutCreateInfo;
import org.lwjgl.vulkan.VkPushConstantRange;
import org.lwjgl.vulkan.VkShaderModuleCreateInfo;
import org.lwjgl.vulkan.VkSpecializationInfo;
import org.lwjgl.vulkan.VkSpecializationMapEntry;

/**
 * What the driver made of compute modules: each module's pipeline statistics as the driver reports
 * them through VK_KHR_pipeline_executable_properties (on NVIDIA registers, instructions, shared
 * memory...), so that a Kiln kernel and its GLSL twin can be compared where their speeds differ.
 * It opens a device of its own (the first hardware one, else the first) with every feature the
 * device has, builds each module with a layout of storage buffers at the module's bindings and 256
 * bytes of push constants, its specialization constants at their defaults (Kiln's loop counting
 * off, its checks that launches may settle kept) but {@code halfConversionExact} (2: {@code
 * Gpu.float16ToFloat} by the GPU's conversion, as the runtime builds it where the driver keeps
 * float16 subnormals, NVIDIA's), or with {@code @settled} after the name those checks left out
 * ({@code checksSettled}, specialization constant 1, as the runtime builds a launch whose values
 * prove them).
 *
 * <p>{@code java -cp ... dev.kiln.bench.PipelineStats <module>[@settled] ...}: each a class-path
 * resource, {@code dev/kiln/library/GemvKernels.normedProductInSubgroups.spv} or {@code
 * dev/kiln/bench/glsl/gemvhjava.spv}. With {@code -Dkiln.irDir=DIR} it also writes the internal
 * representations the driver gives (its compiled code, where it gives any) to {@code DIR}, a file
 * a module and representation.
 */
public final class PipelineStats {
  private PipelineStats() {}

  public static void main(String[] args) throws IOException {
    try (MemoryStack stack = stackPush()) {
      VkInstance instance = instance(stack);
      VkPhysicalDevice physical = physical(instance, stack);
      VkPhysicalDeviceProperties properties = VkPhysicalDeviceProperties.malloc(stack);
      vkGetPhysicalDeviceProperties(physical, properties);
      if (!hasExtension(physical, stack)) {
        System.out.println(properties.deviceNameString() + " has no " + VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
        return;
      }
      VkDevice device = device(physical, stack);
      System.out.println(properties.deviceNameString() + " (driver " + properties.driverVersion() + ")");
      for (String module : args) {
        report(device, module);
      }
      vkDestroyDevice(device, null);
      vkDestroyInstance(instance, null);
    }
  }

  private static VkInstance instance(MemoryStack stack) {
    VkApplicationInfo app = VkApplicationInfo.calloc(stack).sType$Default().apiVersion(VK_API_VERSION_1_3);
    VkInstanceCreateInfo info = VkInstanceCreateInfo.calloc(stack).sType$Default().pApplicationInfo(app);
    PointerBuffer pointer = stack.mallocPointer(1);
    check(vkCreateInstance(info, null, pointer), "vkCreateInstance");
    return new VkInstance(pointer.get(0), info);
  }

  private static VkPhysicalDevice physical(VkInstance instance, MemoryStack stack) {
    IntBuffer count = stack.mallocInt(1);
    vkEnumeratePhysicalDevices(instance, count, null);
    PointerBuffer devices = stack.mallocPointer(count.get(0));
    vkEnumeratePhysicalDevices(instance, count, devices);
    VkPhysicalDevice chosen = new VkPhysicalDevice(devices.get(0), instance);
    for (int i = 0; i < devices.capacity(); i++) {
      VkPhysicalDevice candidate = new VkPhysicalDevice(devices.get(i), instance);
      VkPhysicalDeviceProperties properties = VkPhysicalDeviceProperties.malloc(stack);
      vkGetPhysicalDeviceProperties(candidate, properties);
      if (properties.deviceType() != VK_PHYSICAL_DEVICE_TYPE_CPU) {
        return candidate;
      }
    }
    return chosen;
  }

  private static boolean hasExtension(VkPhysicalDevice physical, MemoryStack stack) {
    IntBuffer count = stack.mallocInt(1);
    vkEnumerateDeviceExtensionProperties(physical, (ByteBuffer) null, count, null);
    VkExtensionProperties.Buffer extensions = VkExtensionProperties.malloc(count.get(0), stack);
    vkEnumerateDeviceExtensionProperties(physical, (ByteBuffer) null, count, extensions);
    for (VkExtensionProperties extension : extensions) {
      if (extension.extensionNameString().equals(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
        return true;
      }
    }
    return false;
  }

  /** A device with one compute queue, every feature the physical device has, and the extension. */
  private static VkDevice device(VkPhysicalDevice physical, MemoryStack stack) {
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executables =
        VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR.calloc(stack)
            .sType(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
    VkPhysicalDeviceVulkan13Features v13 = VkPhysicalDeviceVulkan13Features.calloc(stack).sType$Default().pNext(executables.address());
    VkPhysicalDeviceVulkan12Features v12 = VkPhysicalDeviceVulkan12Features.calloc(stack).sType$Default().pNext(v13.address());
    VkPhysicalDeviceVulkan11Features v11 = VkPhysicalDeviceVulkan11Features.calloc(stack).sType$Default().pNext(v12.address());
    VkPhysicalDeviceFeatures2 features = VkPhysicalDeviceFeatures2.calloc(stack).sType$Default().pNext(v11);
    vkGetPhysicalDeviceFeatures2(physical, features);
    VkDeviceQueueCreateInfo.Buffer queue = VkDeviceQueueCreateInfo.calloc(1, stack).sType$Default()
        .queueFamilyIndex(0).pQueuePriorities(stack.floats(1f));
    PointerBuffer pointer = stack.mallocPointer(1);
    VkDeviceCreateInfo info = VkDeviceCreateInfo.calloc(stack).sType$Default().pNext(features).pQueueCreateInfos(queue)
        .ppEnabledExtensionNames(stack.pointers(stack.UTF8(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)));
    check(vkCreateDevice(physical, info, null, pointer), "vkCreateDevice");
    return new VkDevice(pointer.get(0), physical, info, VK_API_VERSION_1_3);
  }

  private static void report(VkDevice device, String argument) throws IOException {
    boolean settled = argument.endsWith("@settled");
    String resource = settled ? argument.substring(0, argument.length() - "@settled".length()) : argument;
    byte[] code;
    try (InputStream in = PipelineStats.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        System.out.println(resource + ": no such resource");
        return;
      }
      code = in.readAllBytes();
    }
    try (MemoryStack stack = stackPush()) {
      ByteBuffer words = MemoryUtil.memAlloc(code.length).put(code).flip();
      LongBuffer handle = stack.mallocLong(1);
      check(vkCreateShaderModule(device, VkShaderModuleCreateInfo.calloc(stack).sType$Default().pCode(words), null, handle), "vkCreateShaderModule");
      long shader = handle.get(0);
      TreeSet<Integer> bindings = bindings(code);
      VkDescriptorSetLayoutBinding.Buffer slots = VkDescriptorSetLayoutBinding.calloc(bindings.size(), stack);
      for (int binding : bindings) {
        slots.get().binding(binding).descriptorType(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER).descriptorCount(1).stageFlags(VK_SHADER_STAGE_COMPUTE_BIT);
      }
      check(vkCreateDescriptorSetLayout(device, VkDescriptorSetLayoutCreateInfo.calloc(stack).sType$Default().pBindings(slots.flip()), null, handle), "vkCreateDescriptorSetLayout");
      long setLayout = handle.get(0);
      VkPushConstantRange.Buffer push = VkPushConstantRange.calloc(1, stack).stageFlags(VK_SHADER_STAGE_COMPUTE_BIT).size(128);
      check(vkCreatePipelineLayout(device, VkPipelineLayoutCreateInfo.calloc(stack).sType$Default().pSetLayouts(stack.longs(setLayout)).pPushConstantRanges(push), null, handle), "vkCreatePipelineLayout");
      long layout = handle.get(0);
      VkComputePipelineCreateInfo.Buffer pipelineInfo = VkComputePipelineCreateInfo.calloc(1, stack).sType$Default()
          .flags(VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR | VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR)
          .layout(layout);
      pipelineInfo.stage().sType$Default().stage(VK_SHADER_STAGE_COMPUTE_BIT).module(shader).pName(stack.UTF8("main"));
      // Gpu.float16ToFloat by the GPU's conversion (constant 2), as the runtime picks it where the
      // driver keeps float16 subnormals; with @settled also the checks left out (constant 1)
      VkSpecializationMapEntry.Buffer entries = VkSpecializationMapEntry.calloc(settled ? 2 : 1, stack);
      entries.get(0).constantID(2).offset(0).size(4);
      if (settled) {
        entries.get(1).constantID(1).offset(4).size(4);
      }
      pipelineInfo.stage().pSpecializationInfo(VkSpecializationInfo.calloc(stack).pMapEntries(entries)
          .pData(stack.calloc(8).putInt(0, 1).putInt(4, 1)));
      check(vkCreateComputePipelines(device, VK_NULL_HANDLE, pipelineInfo, null, handle), "vkCreateComputePipelines " + resource);
      long pipeline = handle.get(0);
      VkPipelineInfoKHR which = VkPipelineInfoKHR.calloc(stack).sType$Default().pipeline(pipeline);
      IntBuffer count = stack.mallocInt(1);
      vkGetPipelineExecutablePropertiesKHR(device, which, count, null);
      VkPipelineExecutablePropertiesKHR.Buffer executables = VkPipelineExecutablePropertiesKHR.calloc(count.get(0));
      executables.forEach(e -> e.sType$Default());
      vkGetPipelineExecutablePropertiesKHR(device, which, count, executables);
      StringBuilder line = new StringBuilder(argument + ":");
      for (int e = 0; e < executables.capacity(); e++) {
        VkPipelineExecutableInfoKHR executable = VkPipelineExecutableInfoKHR.calloc(stack).sType$Default().pipeline(pipeline).executableIndex(e);
        vkGetPipelineExecutableStatisticsKHR(device, executable, count, null);
        VkPipelineExecutableStatisticKHR.Buffer statistics = VkPipelineExecutableStatisticKHR.calloc(count.get(0));
        statistics.forEach(s -> s.sType$Default());
        vkGetPipelineExecutableStatisticsKHR(device, executable, count, statistics);
        for (VkPipelineExecutableStatisticKHR statistic : statistics) {
          line.append("\n  ").append(statistic.nameString()).append(" = ").append(switch (statistic.format()) {
            case 0 -> String.valueOf(statistic.value().b32());
            case 1 -> String.valueOf(statistic.value().i64());
            case 2 -> Long.toUnsignedString(statistic.value().u64());
            default -> String.valueOf(statistic.value().f64());
          });
        }
        statistics.free();
        representations(device, executable, argument, e);
      }
      executables.free();
      System.out.println(line);
      vkDestroyPipeline(device, pipeline, null);
      vkDestroyPipelineLayout(device, layout, null);
      vkDestroyDescriptorSetLayout(device, setLayout, null);
      vkDestroyShaderModule(device, shader, null);
      MemoryUtil.memFree(words);
    }
  }

  /** The driver's internal representations of one executable, into {@code kiln.irDir} if set. */
  private static void representations(VkDevice device, VkPipelineExecutableInfoKHR executable, String argument, int index)
      throws IOException {
    String dir = System.getProperty("kiln.irDir");
    if (dir == null) {
      return;
    }
    try (MemoryStack stack = stackPush()) {
      IntBuffer count = stack.mallocInt(1);
      vkGetPipelineExecutableInternalRepresentationsKHR(device, executable, count, null);
      int n = count.get(0);
      VkPipelineExecutableInternalRepresentationKHR.Buffer irs = VkPipelineExecutableInternalRepresentationKHR.calloc(n, stack);
      irs.forEach(r -> r.sType$Default());
      vkGetPipelineExecutableInternalRepresentationsKHR(device, executable, count, irs);
      ByteBuffer[] data = new ByteBuffer[n];
      for (int r = 0; r < n; r++) {
        data[r] = MemoryUtil.memAlloc((int) irs.get(r).dataSize());
        MemoryUtil.memPutAddress(irs.get(r).address() + VkPipelineExecutableInternalRepresentationKHR.PDATA, MemoryUtil.memAddress(data[r]));
      }
      vkGetPipelineExecutableInternalRepresentationsKHR(device, executable, count, irs);
      String base = argument.replaceAll("[^A-Za-z0-9.@]+", "_");
      for (int r = 0; r < n; r++) {
        VkPipelineExecutableInternalRepresentationKHR ir = irs.get(r);
        byte[] bytes = new byte[(int) ir.dataSize()];
        data[r].get(0, bytes);
        String name = base + "." + index + "." + r + "." + ir.nameString().replaceAll("[^A-Za-z0-9]+", "_") + (ir.isText() ? ".txt" : ".bin");
        Files.write(Path.of(dir, name), bytes);
        System.out.println("  representation " + ir.nameString() + " (" + ir.descriptionString() + "): " + bytes.length + " bytes -> " + name);
        MemoryUtil.memFree(data[r]);
      }
    }
  }

  /** The bindings the module decorates (set 0: Kiln's and the twins' only set). */
  private static TreeSet<Integer> bindings(byte[] code) {
    ByteBuffer words = ByteBuffer.wrap(code).order(ByteOrder.LITTLE_ENDIAN);
    TreeSet<Integer> bindings = new TreeSet<>();
    for (int at = 20; at + 4 <= code.length; at += 4 * Math.max(1, words.getInt(at) >>> 16)) {
      int opcode = words.getInt(at) & 0xffff;
      if (opcode == 71 && words.getInt(at + 8) == 33) { // OpDecorate id Binding n
        bindings.add(words.getInt(at + 12));
      }
    }
    return bindings;
  }

  private static void check(int result, String what) {
    if (result != VK_SUCCESS) {
      throw new IllegalStateException(what + " failed: " + result);
    }
  }
}
