package dev.kiln.vulkan;

import static org.lwjgl.util.vma.Vma.*;
import static org.lwjgl.vulkan.VK10.*;

import dev.kiln.abi.NumericType;
import dev.kiln.backend.BackendBuffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.util.vma.VmaAllocationCreateInfo;
import org.lwjgl.util.vma.VmaAllocationInfo;
import org.lwjgl.vulkan.VkBufferCreateInfo;

/**
 * A buffer in device memory. Where memory is both device-local and host-visible (lavapipe,
 * integrated GPUs, resizable BAR) it is mapped and copied to directly; otherwise (a discrete GPU)
 * it is device-local only, and data moves through a staging buffer and a transfer on the queue. It
 * holds one element more than its array (Vulkan has no empty buffers; kernels read the length as
 * one less). A buffer of a thread's {@link ScratchBuffers} goes back to them when closed.
 */
final class VulkanBuffer implements BackendBuffer {
  /** Where a buffer lives. */
  enum Placement {
    /** Device-local if the device has it host-visible too; mapped. */
    MAPPED,
    /** Device-local, not mapped: reached by transfers only. */
    DEVICE,
    /** Host memory for transfers to and from {@link #DEVICE} buffers; mapped. */
    STAGING
  }

  /**
   * A copy between a Java array and a mapping is split into pieces of at least this many bytes, one
   * per thread.
   */
  private static final long PARALLEL_PIECE_BYTES = 4L << 20;

  /**
   * Transfers and zeroings of mapped device memory at least this long go on the queue ({@link
   * #movesThroughStaging}).
   */
  private static final long ON_QUEUE_BYTES = 32 << 10;

  private final VulkanBackend owner;
  private final NumericType type;
  private final int length;
  private final long handle;
  private final long allocation;
  private final long mapped;
  private final boolean deviceLocal;

  /**
   * Mapped memory whose reads the CPU does not cache, which is not a staging buffer: device memory
   * the host sees across the bus (resizable BAR).
   */
  private final boolean uncachedDeviceMemory;

  /** The mapped memory as a buffer of the element type, made once; null where it is not mapped. */
  private final java.nio.Buffer view;

  private boolean closed;

  /** Where closing puts the buffer for reuse; null to free it. */
  private ScratchBuffers scratch;

  VulkanBuffer(VulkanBackend owner, NumericType type, int length, Placement placement) {
    this.owner = owner;
    this.type = type;
    this.length = length;
    try (MemoryStack stack = MemoryStack.stackPush()) {
      VkBufferCreateInfo info =
          VkBufferCreateInfo.calloc(stack)
              .sType$Default()
              .size((byteSize() + 3) & ~3L) // whole words: vkCmdFillBuffer zeroes words only
              .usage(
                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT
                      | VK_BUFFER_USAGE_TRANSFER_SRC_BIT
                      | VK_BUFFER_USAGE_TRANSFER_DST_BIT)
              .sharingMode(VK_SHARING_MODE_EXCLUSIVE);
      VmaAllocationCreateInfo memory = VmaAllocationCreateInfo.calloc(stack);
      switch (placement) {
        case MAPPED ->
            memory
                .usage(VMA_MEMORY_USAGE_AUTO_PREFER_DEVICE)
                .flags(
                    VMA_ALLOCATION_CREATE_HOST_ACCESS_RANDOM_BIT
                        | VMA_ALLOCATION_CREATE_MAPPED_BIT);
        case DEVICE -> memory.usage(VMA_MEMORY_USAGE_AUTO_PREFER_DEVICE);
        case STAGING ->
            memory
                .usage(VMA_MEMORY_USAGE_AUTO_PREFER_HOST)
                .flags(
                    VMA_ALLOCATION_CREATE_HOST_ACCESS_RANDOM_BIT
                        | VMA_ALLOCATION_CREATE_MAPPED_BIT);
      }
      LongBuffer buffer = stack.mallocLong(1);
      PointerBuffer alloc = stack.mallocPointer(1);
      VmaAllocationInfo allocated = VmaAllocationInfo.calloc(stack);
      Vk.check(
          vmaCreateBuffer(owner.allocator(), info, memory, buffer, alloc, allocated),
          "vmaCreateBuffer");
      handle = buffer.get(0);
      allocation = alloc.get(0);
      mapped = allocated.pMappedData();
      IntBuffer flags = stack.mallocInt(1);
      vmaGetAllocationMemoryProperties(owner.allocator(), allocation, flags);
      deviceLocal = (flags.get(0) & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0;
      uncachedDeviceMemory =
          mapped != 0
              && deviceLocal
              && placement != Placement.STAGING
              && (flags.get(0) & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) == 0;
    }
    int elements = length + 1;
    view =
        mapped == 0
            ? null
            : switch (type) {
              case FLOAT -> MemoryUtil.memFloatBuffer(mapped, elements);
              case INT -> MemoryUtil.memIntBuffer(mapped, elements);
              case LONG -> MemoryUtil.memLongBuffer(mapped, elements);
              case DOUBLE -> MemoryUtil.memDoubleBuffer(mapped, elements);
              case BYTE, BOOLEAN -> MemoryUtil.memByteBuffer(mapped, elements);
              case SHORT -> MemoryUtil.memShortBuffer(mapped, elements);
              case CHAR ->
                  MemoryUtil.memByteBuffer(mapped, 2 * elements)
                      .order(java.nio.ByteOrder.nativeOrder())
                      .asCharBuffer();
            };
  }

  /**
   * Bytes the buffer occupies on the device and binds: one element more than it holds, so that an
   * empty array has a binding too and kernels read its length as the runtime array's minus one.
   */
  long byteSize() {
    return (length + 1L) * type.bytes();
  }

  long handle() {
    return handle;
  }

  boolean isMapped() {
    return mapped != 0;
  }

  boolean isDeviceLocal() {
    return deviceLocal;
  }

  @Override
  public NumericType type() {
    return type;
  }

  @Override
  public int length() {
    return length;
  }

  /**
   * Whether a transfer of {@code bytes} goes through a staging buffer in host memory although the
   * buffer is mapped: where it is device memory that the host sees across the bus (resizable BAR),
   * which the CPU does not cache: reads of it ran at about 2 GB/s on the H200 machine, and large
   * writes no faster (docs/PERFORMANCE.md), where a copy on the queue between it and cached host
   * memory runs at the bus's speed. A transfer too small to pay for a submission uses the mapping.
   * (Lavapipe's memory is device-local and cached: it uses the mapping.)
   */
  boolean movesThroughStaging(long bytes) {
    return uncachedDeviceMemory && bytes >= ON_QUEUE_BYTES;
  }

  /**
   * Zeroes the buffer, as Java zeroes a new array: on the queue where the host would write much
   * across the bus.
   */
  void clear() {
    if (isMapped() && !movesThroughStaging(byteSize())) {
      MemoryUtil.memSet(mapped, 0, byteSize());
      vmaFlushAllocation(owner.allocator(), allocation, 0, VK_WHOLE_SIZE);
    } else {
      owner.fill(this, 0);
    }
  }

  @Override
  public void write(Object array, int arrayOffset, int offset, int count) {
    if (!isMapped() || movesThroughStaging((long) count * type.bytes())) {
      try (VulkanBuffer staging = owner.stagingBuffer(type, count)) {
        staging.write(array, arrayOffset, 0, count);
        owner.copy(staging, 0, this, (long) offset * type.bytes(), (long) count * type.bytes());
      }
      return;
    }
    int pieces = pieces(count);
    if (pieces < 2) { // a launch's small arrays: no lambda, nothing allocated
      put(array, arrayOffset, offset, count);
    } else {
      inPieces(pieces, count, (first, n) -> put(array, arrayOffset + first, offset + first, n));
    }
    vmaFlushAllocation(owner.allocator(), allocation, 0, VK_WHOLE_SIZE);
  }

  /** Copies elements {@code first .. first+count-1} of a transfer. */
  @FunctionalInterface
  private interface Piece {
    void copy(int first, int count);
  }

  /**
   * In how many pieces a copy of {@code count} elements between a Java array and the mapping runs:
   * one, or for a large copy one per thread of the common fork-join pool, as one thread's copy
   * reached about 10 GB/s on the H200 machine, well below its memory and bus (docs/PERFORMANCE.md).
   */
  private int pieces(int count) {
    return (int)
        Math.min(
            java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() + 1L,
            (long) count * type.bytes() / PARALLEL_PIECE_BYTES);
  }

  /**
   * Runs {@code piece} over {@code [0, count)} in {@code pieces} parts on the common fork-join
   * pool.
   */
  private static void inPieces(int pieces, int count, Piece piece) {
    java.util.stream.IntStream.range(0, pieces)
        .parallel()
        .forEach(
            k -> {
              int first = (int) ((long) count * k / pieces);
              piece.copy(first, (int) ((long) count * (k + 1) / pieces) - first);
            });
  }

  /**
   * Writes {@code count} of {@code array}'s elements from {@code arrayOffset} to the mapping at
   * {@code offset}.
   */
  private void put(Object array, int arrayOffset, int offset, int count) {
    switch (array) {
      case float[] values -> ((FloatBuffer) view).put(offset, values, arrayOffset, count);
      case int[] values -> ((IntBuffer) view).put(offset, values, arrayOffset, count);
      case long[] values -> ((LongBuffer) view).put(offset, values, arrayOffset, count);
      case double[] values -> ((DoubleBuffer) view).put(offset, values, arrayOffset, count);
      case byte[] values -> ((ByteBuffer) view).put(offset, values, arrayOffset, count);
      case short[] values -> ((ShortBuffer) view).put(offset, values, arrayOffset, count);
      case char[] values -> ((CharBuffer) view).put(offset, values, arrayOffset, count);
      case boolean[] values -> {
        for (int k = 0; k < count; k++) {
          ((ByteBuffer) view).put(offset + k, (byte) (values[arrayOffset + k] ? 1 : 0));
        }
      }
      default -> throw new IllegalArgumentException(array.getClass().getSimpleName());
    }
  }

  @Override
  public void read(Object array, int arrayOffset, int offset, int count) {
    if (!isMapped() || movesThroughStaging((long) count * type.bytes())) {
      try (VulkanBuffer staging = owner.stagingBuffer(type, count)) {
        owner.copy(this, (long) offset * type.bytes(), staging, 0, (long) count * type.bytes());
        staging.read(array, arrayOffset, 0, count);
      }
      return;
    }
    vmaInvalidateAllocation(owner.allocator(), allocation, 0, VK_WHOLE_SIZE);
    int pieces = pieces(count);
    if (pieces < 2) {
      get(array, arrayOffset, offset, count);
    } else {
      inPieces(pieces, count, (first, n) -> get(array, arrayOffset + first, offset + first, n));
    }
  }

  /**
   * Reads {@code count} elements of the mapping from {@code offset} into {@code array} from {@code
   * arrayOffset}.
   */
  private void get(Object array, int arrayOffset, int offset, int count) {
    switch (array) {
      case float[] values -> ((FloatBuffer) view).get(offset, values, arrayOffset, count);
      case int[] values -> ((IntBuffer) view).get(offset, values, arrayOffset, count);
      case long[] values -> ((LongBuffer) view).get(offset, values, arrayOffset, count);
      case double[] values -> ((DoubleBuffer) view).get(offset, values, arrayOffset, count);
      case byte[] values -> ((ByteBuffer) view).get(offset, values, arrayOffset, count);
      case short[] values -> ((ShortBuffer) view).get(offset, values, arrayOffset, count);
      case char[] values -> ((CharBuffer) view).get(offset, values, arrayOffset, count);
      case boolean[] values -> {
        for (int k = 0; k < count; k++) {
          values[arrayOffset + k] = ((ByteBuffer) view).get(offset + k) != 0;
        }
      }
      default -> throw new IllegalArgumentException(array.getClass().getSimpleName());
    }
  }

  /** Closing it will hand it to {@code buffers} for reuse where they take it. */
  void recycleInto(ScratchBuffers buffers) {
    scratch = buffers;
  }

  @Override
  public void close() {
    if (!closed && scratch != null && scratch.keep(this)) {
      return;
    }
    free();
  }

  /** Frees the buffer's memory, even one kept for reuse. */
  void free() {
    if (!closed) {
      closed = true;
      owner.free(this);
      vmaDestroyBuffer(owner.allocator(), handle, allocation);
    }
  }
}
