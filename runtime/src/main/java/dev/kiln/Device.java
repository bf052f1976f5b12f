package dev.kiln;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.abi.NumericType;
import dev.kiln.access.LaunchAccess;
import dev.kiln.backend.Backend;
import dev.kiln.backend.BackendBatch;
import dev.kiln.backend.BackendBuffer;
import dev.kiln.backend.KilnLog;
import dev.kiln.backend.StartupTrace;
import dev.kiln.matrix.MatrixElement;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A compute device: a Vulkan GPU or the Java CPU backend. Open one with {@link #open()}, create
 * device arrays on it, and pass it to generated launchers. Several threads may use a device at
 * once: each records its own launches, and they take turns only at the queue. Closing the device
 * waits for running operations and frees every array still open on it.
 *
 * <p>System properties: {@code kiln.device} = {@code cpu}, {@code vulkan} or a fragment of a Vulkan
 * device name, with {@code #n} for the device of rank n among those it names (default: the best
 * device); {@link #all()} opens every GPU; {@code kiln.validation=true} turns the Vulkan validation
 * layer on, and then any validation message makes the next operation throw.
 */
public final class Device implements AutoCloseable {
  /** How many devices this process has opened: each gets the next number. */
  private static final AtomicInteger OPENED = new AtomicInteger();

  /** Whether this JVM logged that kernels run on the CPU backend for want of a GPU. */
  private static final AtomicBoolean FALLBACK_SAID = new AtomicBoolean();

  private final Backend backend;

  /**
   * This device's number among those the process opened, from 1: two devices of one name differ in
   * it.
   */
  private final int number = OPENED.incrementAndGet();

  private final DeviceGate gate;

  /** Where launches on this device go: argument checks, the backend, device times. */
  final LaunchPath launches;

  /** The arrays allocated on this device and not yet freed, and their bytes. */
  private final AtomicInteger arrays = new AtomicInteger();

  private final AtomicLong arrayBytes = new AtomicLong();

  /** The arrays {@link #lendScratch} got back, shortest first; closed with the device. */
  private final List<FloatArray> spareScratch = new ArrayList<>();

  /** The most spare scratch arrays the device keeps. */
  private static final int SPARE_SCRATCH = 4;

  static {
    LaunchAccess.install(new LaunchEntry());
  }

  private Device(Backend backend) {
    this.backend = backend;
    this.gate = new DeviceGate(backend.deviceName());
    this.launches = new LaunchPath(this, backend);
  }

  /**
   * Opens the device chosen by {@code -Dkiln.device}, or the best one there is.
   *
   * @return the open device
   */
  public static Device open() {
    return open(System.getProperty("kiln.device", ""));
  }

  /**
   * Opens the device named by {@code selector}: {@code "cpu"}, {@code "vulkan"} (the best Vulkan
   * device, software ones included), a fragment of a Vulkan device's name, or {@code ""} for the
   * best device of all: the best hardware GPU, else the CPU backend. A software Vulkan device
   * (lavapipe) is taken only when named: it runs kernels about 25 times slower than the CPU
   * backend.
   *
   * @param selector {@code "cpu"}, {@code "vulkan"}, a fragment of a device name, or {@code ""}
   * @return the open device
   */
  public static Device open(String selector) {
    StartupTrace.begin();
    DeviceSelection.Choice choice = DeviceSelection.open(selector);
    if (choice.fallbackReason() != null) { // said once per JVM, then at DEBUG
      KilnLog.logger()
          .log(
              FALLBACK_SAID.getAndSet(true) ? Level.DEBUG : Level.INFO,
              "Kernels run on the Java CPU backend: no hardware Vulkan device can be opened: {0}",
              choice.fallbackReason());
    }
    Backend backend = choice.backend();
    if (backend.validationEnabled()) { // else nothing is logged: a log line costs more than a start
      KilnLog.logger()
          .log(
              Level.DEBUG,
              "Kiln device: {0} ({1}, validation on)",
              backend.deviceName(),
              backend.kind());
    }
    StartupTrace.mark("Device.open() returns");
    return new Device(backend);
  }

  /**
   * Opens every hardware GPU Kiln can use, one device each, best first (the ranks {@code
   * Device.open("#0")}, {@code "#1"}, … take); where there is none, the CPU backend alone, so that
   * code written for several devices runs anywhere. Software Vulkan (lavapipe) is not among them:
   * open it by name. On a failure the devices opened so far are closed.
   *
   * @return the open devices, at least one
   */
  public static List<Device> all() {
    int gpus = DeviceSelection.hardwareGpus();
    if (gpus == 0) {
      return List.of(open("cpu"));
    }
    List<Device> devices = new ArrayList<>();
    try {
      for (int rank = 0; rank < gpus; rank++) {
        devices.add(open("#" + rank));
      }
    } catch (RuntimeException e) {
      devices.forEach(Device::close);
      throw e;
    }
    return List.copyOf(devices);
  }

  /**
   * The device's name, as its driver reports it.
   *
   * @return the device name
   */
  public String name() {
    return backend.deviceName();
  }

  /**
   * {@code "vulkan"} or {@code "cpu"}.
   *
   * @return the backend's kind
   */
  public String backend() {
    return backend.kind();
  }

  /**
   * Whether this device may flush subnormal {@code float} or {@code double} values (magnitudes
   * below {@link Float#MIN_NORMAL}) to zero, where Java computes with them: its driver does not
   * offer to preserve them (NVIDIA's and lavapipe's for {@code float}; docs/DRIVER-GAPS.md). Kiln
   * asks every device that offers it to preserve them; false on the CPU backend.
   *
   * @return whether subnormal results may become zero
   */
  public boolean flushesSubnormals() {
    return backend.flushesSubnormals();
  }

  /**
   * The invocations of one subgroup on this device: the driver's subgroup size on Vulkan (32 on
   * NVIDIA, 8 on lavapipe with AVX2), the emulated one on the CPU backend ({@code
   * -Dkiln.cpu.subgroupSize}, 32 by default), where kernels give the same bits as on a GPU of that
   * size.
   *
   * @return the subgroup size
   */
  public int subgroupSize() {
    return backend.subgroupSize();
  }

  /**
   * Whether this device multiplies cooperative-matrix tiles ({@code Gpu.multiplyAdd}) of {@code
   * element} in hardware, such as tensor cores: a Vulkan device with VK_KHR_cooperative_matrix's 16
   * x 16 x 16 shape for that element (and VK_KHR_shader_bfloat16 for bfloat16). Where it does not,
   * a kernel with such tiles is refused (Vulkan) or runs as its Java methods, lanes side by side
   * (the CPU backend: false here), and a library picks another kernel.
   *
   * @param element the tiles' element type
   * @return whether such tiles multiply in hardware
   */
  public boolean multipliesTiles(MatrixElement element) {
    return backend.offers(
        switch (element) {
          case FLOAT16 -> DeviceFeature.FLOAT16_MATRICES;
          case BFLOAT16 -> DeviceFeature.BFLOAT16_MATRICES;
        });
  }

  /**
   * Whether the Vulkan validation layer watches this device.
   *
   * @return whether validation is on
   */
  public boolean validationEnabled() {
    return backend.validationEnabled();
  }

  /**
   * Bytes of Vulkan pipeline cache this device loaded from disk when it opened (0 for none, or on
   * the CPU backend). The cache lives in {@code -Dkiln.pipelineCache} (default {@code
   * ~/.cache/kiln}), one file per device and driver, written when the device closes.
   *
   * @return the size of the loaded cache in bytes
   */
  public long pipelineCacheLoadedBytes() {
    return backend.pipelineCacheLoadedBytes();
  }

  /**
   * A new zero-filled float array of {@code length} elements on this device.
   *
   * @param length the number of elements
   * @return a new array of zeros
   */
  public FloatArray floats(int length) {
    return gate.whileOpen(() -> new FloatArray(this, allocate(NumericType.FLOAT, length)));
  }

  /**
   * A new int array of {@code length} elements on this device, zero-filled.
   *
   * @param length the number of elements
   * @return a new array of zeros
   */
  public IntArray ints(int length) {
    return gate.whileOpen(() -> new IntArray(this, allocate(NumericType.INT, length)));
  }

  /**
   * A new long array of {@code length} elements on this device, zero-filled (needs shaderInt64).
   *
   * @param length the number of elements
   * @return a new array of zeros
   */
  public LongArray longs(int length) {
    return gate.whileOpen(() -> new LongArray(this, allocate(NumericType.LONG, length)));
  }

  /**
   * A new double array of {@code length} elements on this device, zero-filled (needs
   * shaderFloat64).
   *
   * @param length the number of elements
   * @return a new array of zeros
   */
  public DoubleArray doubles(int length) {
    return gate.whileOpen(() -> new DoubleArray(this, allocate(NumericType.DOUBLE, length)));
  }

  /**
   * A new device array holding a copy of {@code values}.
   *
   * @param values the values to copy
   * @return a new device array with the values
   */
  public LongArray upload(long[] values) {
    return longs(values.length).upload(values);
  }

  /**
   * A new device array holding a copy of {@code values}.
   *
   * @param values the values to copy
   * @return a new device array with the values
   */
  public DoubleArray upload(double[] values) {
    return doubles(values.length).upload(values);
  }

  /**
   * A new device array holding a copy of {@code values}.
   *
   * @param values the values to copy
   * @return a new device array with the values
   */
  public FloatArray upload(float[] values) {
    return floats(values.length).upload(values);
  }

  /**
   * A new device array holding a copy of {@code values}.
   *
   * @param values the values to copy
   * @return a new device array with the values
   */
  public IntArray upload(int[] values) {
    return ints(values.length).upload(values);
  }

  /**
   * A new byte array of {@code length} elements on this device, zero-filled (needs 8- or 16-bit
   * storage on Vulkan).
   *
   * @param length the number of elements
   * @return a new array of zeros
   */
  public ByteArray bytes(int length) {
    return gate.whileOpen(() -> new ByteArray(this, allocate(NumericType.BYTE, length)));
  }

  /**
   * A new device array holding a copy of {@code values}.
   *
   * @param values the values to copy
   * @return a new device array with the values
   */
  public ByteArray upload(byte[] values) {
    return bytes(values.length).upload(values);
  }

  /**
   * A new short array of {@code length} elements on this device, zero-filled (needs 8- or 16-bit
   * storage on Vulkan).
   *
   * @param length the number of elements
   * @return a new array of zeros
   */
  public ShortArray shorts(int length) {
    return gate.whileOpen(() -> new ShortArray(this, allocate(NumericType.SHORT, length)));
  }

  /**
   * A new device array holding a copy of {@code values}.
   *
   * @param values the values to copy
   * @return a new device array with the values
   */
  public ShortArray upload(short[] values) {
    return shorts(values.length).upload(values);
  }

  /**
   * A new char array of {@code length} elements on this device, zero-filled (needs 8- or 16-bit
   * storage on Vulkan).
   *
   * @param length the number of elements
   * @return a new array of zeros
   */
  public CharArray chars(int length) {
    return gate.whileOpen(() -> new CharArray(this, allocate(NumericType.CHAR, length)));
  }

  /**
   * A new device array holding a copy of {@code values}.
   *
   * @param values the values to copy
   * @return a new device array with the values
   */
  public CharArray upload(char[] values) {
    return chars(values.length).upload(values);
  }

  /**
   * A new boolean array of {@code length} elements on this device, zero-filled (needs 8- or 16-bit
   * storage on Vulkan).
   *
   * @param length the number of elements
   * @return a new array of {@code false}
   */
  public BooleanArray booleans(int length) {
    return gate.whileOpen(() -> new BooleanArray(this, allocate(NumericType.BOOLEAN, length)));
  }

  /**
   * A new device array holding a copy of {@code values}.
   *
   * @param values the values to copy
   * @return a new device array with the values
   */
  public BooleanArray upload(boolean[] values) {
    return booleans(values.length).upload(values);
  }

  /**
   * The time the calling thread's last launch took on the device, in nanoseconds: measured with GPU
   * timestamps on Vulkan where {@link #timeLaunches(boolean)} turned them on (else -1, as on a
   * device without timestamps), as wall time on the CPU backend.
   *
   * @return nanoseconds, or -1 where not measured
   */
  public static long lastDeviceNanos() {
    return LaunchPath.lastDeviceNanos();
  }

  /**
   * Whether single launches on this device record GPU timestamps for {@link #lastDeviceNanos()}
   * (off by default: on the H200 they cost ~5 µs of a ~25 µs launch; on while a JFR recording takes
   * the {@code dev.kiln.Dispatch} event). Batches always time themselves ({@link
   * Batch#deviceNanos()}), once per batch.
   *
   * @param on whether to record timestamps
   */
  public void timeLaunches(boolean on) {
    launches.timeLaunches(on);
  }

  /**
   * A new batch of launches on this device.
   *
   * @return a new, empty batch
   */
  public Batch batch() {
    return gate.whileOpen(() -> new Batch(this, backend.batch()));
  }

  /**
   * Records the launches {@code launches} makes into the batch it is given, once, for a {@link
   * Recording} that runs them as often as asked with no work per launch on the host. The batch
   * takes launches only during the call, and is neither submitted nor closed by it.
   *
   * @param launches records the launches, through generated launchers that take a batch
   * @return the recording, not yet run
   */
  public Recording record(Consumer<Batch> launches) {
    Recording recording = gate.whileOpen(() -> new Recording(this, backend.recording()));
    try {
      launches.accept(recording.batch());
    } catch (RuntimeException | Error e) {
      recording.close();
      throw e;
    }
    recording.batch().seal();
    return recording;
  }

  /** When this device's operations may run; the launch path and arrays enter through it. */
  DeviceGate gate() {
    return gate;
  }

  /** Waits for {@code batch} on the calling thread; after a close, its outcome is one kept. */
  void await(BackendBatch batch) {
    gate.meanwhile(batch::await);
  }

  /** Frees {@code batch}, which has completed or was never submitted. */
  void closeBatch(BackendBatch batch) {
    gate.meanwhile(batch::close); // after a close of the device, the batch has nothing left to free
  }

  /** Awaits {@code batch} on the device's completion thread. */
  CompletableFuture<Void> awaitAsync(BackendBatch batch) {
    return gate.onCompletionThread(() -> await(batch));
  }

  void write(DeviceArray<?, ?> array, Object values, int valuesOffset, int offset, int count) {
    gate.runWhileOpen(() -> array.buffer().write(values, valuesOffset, offset, count));
  }

  void read(DeviceArray<?, ?> array, Object values, int valuesOffset, int offset, int count) {
    gate.runWhileOpen(() -> array.buffer().read(values, valuesOffset, offset, count));
  }

  /**
   * Frees a closed array's memory, or defers it while batches hold the array; nothing once the
   * device closed. Also from the cleaner's thread, for an array found unreachable.
   */
  void release(DeviceArray.Memory memory) {
    gate.ifOpen(memory::freeOrDefer);
  }

  /**
   * Frees a closed array's memory once the batches that held it let go; the device frees it if it
   * closed first.
   */
  void freeClosed(DeviceArray.Memory memory) {
    gate.ifOpen(memory::free);
  }

  /** An array's buffer was freed: counted off {@link #memory()}. */
  void freed(BackendBuffer buffer) {
    arrays.decrementAndGet();
    arrayBytes.addAndGet(-bytes(buffer));
  }

  private static long bytes(BackendBuffer buffer) {
    return (long) buffer.length() * buffer.type().bytes();
  }

  /**
   * The native objects the device holds beside its arrays, counted now: for finding leaks.
   *
   * @return the counts
   */
  public DeviceResources resources() {
    return gate.whileOpen(
        () -> {
          Backend.Resources held = backend.resources();
          return new DeviceResources(held.idleRecorders(), held.openBatches(), held.buffers());
        });
  }

  /**
   * What this device's arrays hold, and what the device offers: on Vulkan its largest device-local
   * memory heap and what of it the driver says this process may still allocate; on the CPU backend
   * the Java heap.
   *
   * @return the figures, read now
   */
  public DeviceMemory memory() {
    return gate.whileOpen(
        () -> {
          Backend.Capacity capacity = backend.capacity();
          return new DeviceMemory(
              arrays.get(), arrayBytes.get(), capacity.totalBytes(), capacity.availableBytes());
        });
  }

  /**
   * A float array of at least {@code length} elements for {@link Batch#scratchFloats}: the shortest
   * spare one long enough, else a new one. Reused rather than made for each batch, so that a
   * program's thousands of split matrix products do not each allocate, zero and first touch
   * megabytes of partial sums (PERFORMANCE.md, the forty-fourth session).
   */
  FloatArray lendScratch(int length) {
    synchronized (spareScratch) {
      FloatArray best = null;
      for (FloatArray spare : spareScratch) {
        if (spare.length() >= length && (best == null || spare.length() < best.length())) {
          best = spare;
        }
      }
      if (best != null) {
        spareScratch.remove(best);
        return best;
      }
    }
    return floats(length);
  }

  /**
   * Takes back an array {@link #lendScratch} lent, once the batch that had it completed: kept for
   * the next batch (at most {@link #SPARE_SCRATCH}, the longest), the rest closed.
   */
  void returnScratch(FloatArray array) {
    FloatArray dropped = array;
    synchronized (spareScratch) {
      if (!gate.isClosed()) {
        spareScratch.add(array);
        spareScratch.sort(Comparator.comparingInt(FloatArray::length));
        dropped = spareScratch.size() > SPARE_SCRATCH ? spareScratch.removeFirst() : null;
      }
    }
    if (dropped != null) {
      dropped.close();
    }
  }

  private BackendBuffer allocate(NumericType type, int length) {
    gate.checkOpen();
    if (length < 0) {
      throw new IllegalArgumentException("length must not be negative: " + length);
    }
    BackendBuffer buffer = backend.allocate(type, length);
    arrays.incrementAndGet();
    arrayBytes.addAndGet(bytes(buffer));
    return buffer;
  }

  /** Frees the device and every array still open on it. Closing twice is harmless. */
  @Override
  public void close() {
    gate.close(backend::close);
  }

  /**
   * Its name, backend and number among the devices this process opened (two of one name differ in
   * it).
   */
  @Override
  public String toString() {
    return name() + " (" + backend() + ", device " + number + " of this process)";
  }
}
