package dev.kiln.vulkan;

import static org.lwjgl.vulkan.VK10.*;

import dev.kiln.Grid;
import dev.kiln.KernelSpec;
import dev.kiln.annotations.Access;
import dev.kiln.backend.BackendBatch;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkCommandBufferBeginInfo;

/**
 * Launches recorded into one command buffer of their own, with a fence and a fault buffer of their
 * own (taken from the device's reusable {@link BatchResources}), so that a batch in flight and the
 * device's single launches do not share state. Between two launches there is a barrier only where
 * the later one uses a buffer the earlier ones wrote since the last barrier, or writes one they read.
 */
final class VulkanBatch implements BackendBatch {
  private final VulkanBackend backend;
  private final BatchResources resources;
  private final VkCommandBuffer commands;
  private final long fence;
  private final LaunchFaults faults;
  private final List<KernelSpec> kernels = new ArrayList<>();
  private final Set<Long> written = new HashSet<>();
  private final Set<Long> read = new HashSet<>();
  private boolean submitted;
  private volatile boolean finished;

  VulkanBatch(VulkanBackend backend) {
    this.backend = backend;
    resources = backend.acquireBatchResources();
    commands = resources.commands;
    fence = resources.fence;
    faults = resources.faults;
    faults.clear();
    try (MemoryStack stack = MemoryStack.stackPush()) {
      Vk.check(vkBeginCommandBuffer(commands, VkCommandBufferBeginInfo.calloc(stack).sType$Default()
          .flags(VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)), "vkBeginCommandBuffer");
      VulkanBackend.barrier(stack, commands, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }
  }

  @Override
  public void record(KernelSpec spec, Grid[] grids, Object[] args) {
    Set<Long> reads = new HashSet<>();
    Set<Long> writes = new HashSet<>();
    int param = 0;
    for (Object arg : args) {
      if (arg instanceof VulkanBuffer buffer) {
        Access access = spec.params().get(param).access();
        if (access != Access.WRITE) {
          reads.add(buffer.handle());
        }
        if (access != Access.READ) {
          writes.add(buffer.handle());
        }
      }
      param++;
    }
    try (MemoryStack stack = MemoryStack.stackPush()) {
      boolean hazard = reads.stream().anyMatch(written::contains) || writes.stream().anyMatch(written::contains)
          || writes.stream().anyMatch(read::contains);
      if (hazard) {
        VulkanBackend.barrier(stack, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        written.clear();
        read.clear();
      }
      long pool = resources.descriptorPool(backend, stack, spec.bufferCount());
      backend.recordLaunch(stack, commands, pool, faults.buffer(), spec, grids, args);
    }
    written.addAll(writes);
    read.addAll(reads);
    kernels.add(spec);
  }

  @Override
  public CompletableFuture<Void> submit() {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      VulkanBackend.barrier(stack, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
          VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT);
      Vk.check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
    }
    backend.submit(commands, fence);
    submitted = true;
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread.ofVirtual().start(() -> {
      try {
        backend.awaitFence(fence, "a batch of " + kernels.size() + " launches");
        finished = true;
        backend.checkValidation("while running a batch of " + kernels.size() + " launches");
        faults.throwIfAny("one of the " + kernels.size() + " launches of a batch (" + describeKernels() + ")");
        done.complete(null);
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    });
    return done;
  }

  private String describeKernels() {
    return kernels.stream().map(KernelSpec::toString).distinct().reduce((a, b) -> a + ", " + b).orElse("none");
  }

  @Override
  public void close() {
    boolean idle = !submitted || finished;
    if (!idle) {
      vkDeviceWaitIdle(backend.device()); // its wait failed: make sure nothing still runs before freeing
    }
    backend.releaseBatchResources(resources, idle);
  }
}
