package dev.kiln.vulkan;

import static org.lwjgl.vulkan.VK10.*;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.NumericType;
import dev.kiln.backend.Backend;
import dev.kiln.backend.BackendBatch;
import dev.kiln.backend.BackendBuffer;
import dev.kiln.backend.KernelDescriptions;
import dev.kiln.backend.Launch;
import dev.kiln.backend.SettledChecks;
import dev.kiln.backend.StartupTrace;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkSubmitInfo;

/**
 * A Vulkan compute device (its objects in a {@link VulkanContext}): the pipelines of the kernels
 * run so far, the buffers open on it, the scratch buffers of launches on Java arrays, and the idle
 * {@link LaunchRecorder}s that single launches, transfers and batches take and give back (as many
 * as ever ran at once, whatever the number of threads). A single launch is recorded into a
 * recorder's command buffer, submitted, and waited for on the calling thread.
 */
public final class VulkanBackend implements Backend {
  /**
   * {@code -Dkiln.memory=staging} keeps buffers device-local and unmapped even where the device has
   * device-local host-visible memory, so that the discrete-GPU path runs on lavapipe too; {@code
   * -Dkiln.memory=host} puts them in mapped host memory (for comparisons only: the device then
   * reads them across the bus).
   */
  private static final String MEMORY = System.getProperty("kiln.memory", "auto");

  private final VulkanContext context;

  /** Recorders not in use, for the next launch, transfer or batch. */
  private final ArrayDeque<LaunchRecorder> idleRecorders = new ArrayDeque<>();

  /** Buffers of launches on Java arrays, for the next ones. */
  private final ScratchBuffers scratch = new ScratchBuffers();

  /** Host buffers of transfers to and from buffers that are not mapped, for the next ones. */
  private final ScratchBuffers stagingScratch = new ScratchBuffers();

  private final Set<VulkanBatch> openBatches = Collections.newSetFromMap(new IdentityHashMap<>());
  private final PipelineCache pipelineCache;
  private final Map<KernelSpec, ComputePipeline> pipelines = new ConcurrentHashMap<>();

  /** The pipelines with the checks their launches settled left out ({@link SettledChecks}). */
  private final Map<KernelSpec, ComputePipeline> settledPipelines = new ConcurrentHashMap<>();

  /** The pipelines of kernels whose workgroup arrays parameters size, one per set of lengths. */
  private final Map<SizedPipeline, ComputePipeline> sizedPipelines = new ConcurrentHashMap<>();

  private final Set<VulkanBuffer> live = new LinkedHashSet<>();
  private boolean closed;

  private VulkanBackend(VulkanContext context) {
    this.context = context;
    pipelineCache = PipelineCache.open(context.device, context.physical);
    StartupTrace.mark("pipeline cache read");
    checkValidation("while opening the device", "");
  }

  /**
   * Opens the Vulkan device of rank {@code index} (0 for the best) among those whose name contains
   * {@code nameFragment} (any device when it is empty), ranked discrete GPUs first, then
   * integrated, virtual and software ones.
   */
  public static VulkanBackend open(String nameFragment, int index, boolean validationOn)
      throws VulkanUnavailableException {
    return open(nameFragment, validationOn, false, index);
  }

  /**
   * The hardware Vulkan device of rank {@code index} (0 for the best): none where the only ones run
   * in software on the CPU.
   */
  public static VulkanBackend openHardware(int index, boolean validationOn)
      throws VulkanUnavailableException {
    return open("", validationOn, true, index);
  }

  /**
   * How many hardware Vulkan devices with a compute queue there are (software ones not counted).
   */
  public static int hardwareDeviceCount() throws VulkanUnavailableException {
    return VulkanContext.hardwareDeviceCount();
  }

  private static VulkanBackend open(
      String nameFragment, boolean validationOn, boolean hardwareOnly, int index)
      throws VulkanUnavailableException {
    VulkanContext context = VulkanContext.open(nameFragment, validationOn, hardwareOnly, index);
    try {
      return new VulkanBackend(context);
    } catch (RuntimeException e) {
      context.close();
      throw e;
    }
  }

  /**
   * One entry per Vulkan device with a compute queue, best first: a line naming it, then its
   * compute limits.
   */
  public static List<String> describeDevices() throws VulkanUnavailableException {
    return VulkanContext.describeDevices();
  }

  /**
   * The device groups the Vulkan driver reports, a line each (which devices, whether an allocation
   * may span them), for the device listing.
   *
   * @return the lines
   * @throws VulkanUnavailableException where Vulkan cannot be loaded
   */
  public static List<String> describeDeviceGroups() throws VulkanUnavailableException {
    return VulkanContext.describeDeviceGroups();
  }

  long allocator() {
    return context.allocator;
  }

  int queueFamily() {
    return context.physical.queueFamily();
  }

  PhysicalDevice physical() {
    return context.physical;
  }

  VkDevice device() {
    return context.device;
  }

  void submit(VkSubmitInfo submit, long fence) {
    context.submit(submit, fence);
  }

  /**
   * Waits for the fence at {@code fenceAddress} and resets it; {@code work} names what runs, in the
   * message of a timeout.
   */
  void awaitFence(long fenceAddress, Object work) {
    context.awaitFence(fenceAddress, work);
  }

  /**
   * Throws what the validation layer reported, if it is on; the message says {@code during} and
   * {@code subject}.
   */
  void checkValidation(String during, Object subject) {
    if (context.validation != null) {
      context.validation.throwIfAny(during + subject);
    }
  }

  /** An idle recorder, or a new one. */
  LaunchRecorder takeRecorder() {
    LaunchRecorder recorder;
    synchronized (idleRecorders) {
      recorder = idleRecorders.pollFirst();
    }
    return recorder != null ? recorder : new LaunchRecorder(this);
  }

  /**
   * Takes back a recorder: kept for reuse when nothing it submitted can still run ({@code idle}),
   * else destroyed once the device is idle (waiting for it failed).
   */
  void giveBack(LaunchRecorder recorder, boolean idle) {
    if (idle) {
      synchronized (idleRecorders) {
        idleRecorders.addFirst(recorder);
      }
    } else {
      vkDeviceWaitIdle(context.device);
      recorder.destroy();
    }
  }

  /**
   * The pipeline that runs {@code launch}, built on first use: its module with the checks the
   * launch's values settle left out where they do ({@link SettledChecks}), else the module as
   * written; for a kernel whose workgroup arrays parameters size, one per set of lengths ({@link
   * SharedLengths}, checked here).
   */
  ComputePipeline pipeline(Launch launch) {
    KernelSpec spec = launch.spec();
    boolean settled = SettledChecks.hold(launch);
    Map<KernelSpec, ComputePipeline> built = settled ? settledPipelines : pipelines;
    ComputePipeline pipeline = built.get(spec);
    if (pipeline != null) {
      return pipeline;
    }
    KernelDescription kernel = KernelDescriptions.of(spec);
    if (!kernel.sharedLengths().isEmpty()) {
      List<Integer> lengths = SharedLengths.of(launch, kernel, context.physical);
      return sizedPipelines.computeIfAbsent(
          new SizedPipeline(spec, settled, lengths), key -> create(spec, settled, lengths));
    }
    return built.computeIfAbsent(spec, kernelSpec -> create(kernelSpec, settled, List.of()));
  }

  /** A pipeline of a kernel whose workgroup arrays parameters size, by their lengths. */
  private record SizedPipeline(KernelSpec spec, boolean settled, List<Integer> lengths) {}

  private ComputePipeline create(KernelSpec spec, boolean settled, List<Integer> lengths) {
    return ComputePipeline.create(
        context.device,
        context.physical,
        pipelineCache.handle(),
        spec,
        context.pushDescriptors,
        settled,
        lengths);
  }

  @Override
  public String deviceName() {
    return context.physical.name();
  }

  @Override
  public String kind() {
    return "vulkan";
  }

  @Override
  public boolean flushesSubnormals() {
    return context.physical.flushesSubnormals();
  }

  @Override
  public int subgroupSize() {
    return context.physical.limits().subgroupSize();
  }

  @Override
  public boolean offers(DeviceFeature feature) {
    return context.physical.features().contains(feature);
  }

  @Override
  public long pipelineCacheLoadedBytes() {
    return pipelineCache.loadedBytes();
  }

  @Override
  public boolean validationEnabled() {
    return context.validation != null;
  }

  @Override
  public Capacity capacity() {
    return context.capacity();
  }

  @Override
  public BackendBuffer allocate(NumericType type, int length) {
    context.physical.checkBufferSize((length + 1L) * type.bytes());
    VulkanBuffer buffer;
    if (MEMORY.equals("host")) {
      buffer = new VulkanBuffer(this, type, length, VulkanBuffer.Placement.STAGING);
    } else {
      buffer =
          MEMORY.equals("staging")
              ? null
              : new VulkanBuffer(this, type, length, VulkanBuffer.Placement.MAPPED);
      if (buffer != null
          && !buffer.isDeviceLocal()) { // host memory: the device would read it across the bus
        buffer.close();
        buffer = null;
      }
      if (buffer == null) {
        buffer = new VulkanBuffer(this, type, length, VulkanBuffer.Placement.DEVICE);
      }
    }
    synchronized (live) {
      live.add(buffer);
    }
    buffer.clear();
    return buffer;
  }

  /**
   * A device buffer of {@code type} and {@code length} for a launch on Java arrays: an idle one of
   * the device's scratch buffers where there is one (its contents are the last launch's), else a
   * new one; closing it gives it back.
   */
  VulkanBuffer scratchBuffer(NumericType type, int length) {
    VulkanBuffer buffer = scratch.take(type, length);
    if (buffer == null) {
      buffer = (VulkanBuffer) allocate(type, length);
      buffer.recycleInto(scratch);
    }
    return buffer;
  }

  /**
   * A mapped host buffer of {@code type} and {@code length} for a transfer, reused as {@link
   * #scratchBuffer} is.
   */
  VulkanBuffer stagingBuffer(NumericType type, int length) {
    VulkanBuffer buffer = stagingScratch.take(type, length);
    if (buffer == null) {
      buffer = staging(type, length);
      buffer.recycleInto(stagingScratch);
    }
    return buffer;
  }

  /** A new mapped host buffer (the fault words of a recorder, a transfer's staging). */
  VulkanBuffer staging(NumericType type, int length) {
    VulkanBuffer buffer = new VulkanBuffer(this, type, length, VulkanBuffer.Placement.STAGING);
    synchronized (live) {
      live.add(buffer);
    }
    return buffer;
  }

  void free(VulkanBuffer buffer) {
    synchronized (live) {
      live.remove(buffer);
    }
  }

  /**
   * Copies {@code bytes} from {@code from} at {@code fromOffset} to {@code to} at {@code toOffset},
   * and waits.
   */
  void copy(VulkanBuffer from, long fromOffset, VulkanBuffer to, long toOffset, long bytes) {
    if (bytes == 0) {
      return;
    }
    LaunchRecorder recorder = takeRecorder();
    recorder.begin();
    recorder.barrier(
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
        VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    recorder.copy(from, fromOffset, to, toOffset, bytes);
    run(recorder, "a copy between buffers");
    checkValidation("while running ", "a copy between buffers");
  }

  /** Fills {@code buffer} with the 32-bit {@code word} on the queue and waits. */
  void fill(VulkanBuffer buffer, int word) {
    LaunchRecorder recorder = takeRecorder();
    recorder.begin();
    vkCmdFillBuffer(recorder.commands, buffer.handle(), 0, VK_WHOLE_SIZE, word);
    run(recorder, "filling a buffer");
  }

  /** Ends what {@code recorder} holds, submits it, waits for it, and gives the recorder back. */
  private void run(LaunchRecorder recorder, Object work) {
    boolean inFlight = false;
    try {
      recorder.end();
      recorder.submit();
      inFlight = true;
      recorder.await(work);
      inFlight = false;
    } finally {
      giveBack(recorder, !inFlight);
    }
  }

  @Override
  public long dispatch(Launch launch, boolean timed) {
    return launch(launch, timed, false);
  }

  @Override
  public long dispatchOnArrays(Launch launch, boolean timed) {
    return launch(launch, timed, true);
  }

  /**
   * Records {@code launch} (with the copies of its Java arrays where {@code onArrays}, see {@link
   * ArrayCopies}) into an idle recorder, submits it and waits for it, throws the fault it recorded,
   * and returns its GPU time where {@code timed} (else -1).
   */
  private long launch(Launch launch, boolean timed, boolean onArrays) {
    KernelSpec spec = launch.spec();
    ComputePipeline pipeline = pipeline(launch);
    LaunchRecorder recorder = takeRecorder();
    StartupTrace.mark("first launch: command buffer, fault buffer");
    boolean inFlight = false;
    try {
      recorder.faults.clear();
      recorder.begin();
      if (onArrays) {
        recorder.arrayCopies.stageIn(launch, recorder);
      }
      recorder.barrierBeforeLaunches();
      if (timed) {
        recorder.timer.start(recorder.commands);
      }
      recorder.record(pipeline, launch);
      if (timed) {
        recorder.timer.stop(recorder.commands);
      }
      if (onArrays) {
        recorder.arrayCopies.recordCopiesBack(launch, recorder);
      }
      recorder.end();
      recorder.submit();
      inFlight = true;
      recorder.await(spec);
      inFlight = false;
      checkValidation("while running ", spec);
      recorder.faults.throwIfAny(launch);
      if (onArrays) {
        recorder.arrayCopies.copyBack(launch);
      }
      StartupTrace.mark("first launch: recorded, submitted, waited, copied back");
      StartupTrace.reportFirstLaunch();
      return timed ? recorder.timer.elapsedNanos(context.device) : -1;
    } finally {
      if (onArrays) {
        recorder.arrayCopies.release(launch);
      }
      giveBack(recorder, !inFlight);
    }
  }

  @Override
  public BackendBatch batch() {
    return opened(new VulkanBatch(this, takeRecorder(), false));
  }

  @Override
  public BackendBatch recording() {
    return opened(new VulkanBatch(this, takeRecorder(), true));
  }

  private VulkanBatch opened(VulkanBatch batch) {
    synchronized (openBatches) {
      openBatches.add(batch);
    }
    return batch;
  }

  /** Forgets a closed batch; {@code idle} as for {@link #giveBack}. */
  void batchClosed(VulkanBatch batch, LaunchRecorder recorder, boolean idle) {
    synchronized (openBatches) {
      openBatches.remove(batch);
    }
    giveBack(recorder, idle);
  }

  /** Idle recorders, open batches and open buffers: for leak tests, not for users. */
  @Override
  public Resources resources() {
    synchronized (live) {
      return new Resources(idleRecorders.size(), openBatches.size(), live.size());
    }
  }

  /**
   * Waits for the device, finishes every batch still open (a batch submitted and not yet awaited is
   * awaited now, so that its waiters get its outcome), and frees everything.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    vkDeviceWaitIdle(context.device);
    synchronized (openBatches) {
      openBatches.forEach(VulkanBatch::abandon);
      openBatches.clear();
    }
    scratch.free();
    stagingScratch.free();
    synchronized (idleRecorders) {
      idleRecorders.forEach(LaunchRecorder::destroy);
      idleRecorders.clear();
    }
    List<VulkanBuffer> open;
    synchronized (live) {
      open = new ArrayList<>(live);
    }
    open.forEach(VulkanBuffer::free);
    pipelines.values().forEach(pipeline -> pipeline.destroy(context.device));
    pipelines.clear();
    settledPipelines.values().forEach(pipeline -> pipeline.destroy(context.device));
    settledPipelines.clear();
    sizedPipelines.values().forEach(pipeline -> pipeline.destroy(context.device));
    sizedPipelines.clear();
    pipelineCache.close(context.device);
    context.close();
  }
}
