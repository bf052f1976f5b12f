package dev.kiln;

import dev.kiln.annotations.Access;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What the runtime needs to know about one compiled kernel. Generated launchers create one per
 * kernel; user code has no reason to.
 *
 * <p>The launch ABI shared with the processor: storage buffers are bound in parameter order to
 * bindings 0, 1, … of descriptor set 0, and a fault buffer after them; the push-constant block holds
 * the grid's x size at offset 0, the first workgroup along x of the dispatch at offset 4 (a launch
 * larger than the device's workgroup-count limit is split into several dispatches), the grid's y and
 * z sizes at offsets 8 and 12, then each scalar parameter in parameter order at its natural
 * alignment (4 bytes for int and float, 8 for long and double).
 */
public final class KernelSpec {
  private static final int LAUNCH_BYTES = 16;

  /** Runs the kernel's original Java method once, for the CPU backend. */
  @FunctionalInterface
  public interface CpuBody {
    void invoke(Object[] args);
  }

  /** A kernel parameter: a buffer (Java array) or a scalar push constant. */
  public record Param(String name, boolean isBuffer, NumericType type, Access access) {
    public Param {
      Objects.requireNonNull(name);
      Objects.requireNonNull(type);
      Objects.requireNonNull(access);
    }

    public static Param buffer(String name, NumericType type, Access access) {
      return new Param(name, true, type, access);
    }

    public static Param scalar(String name, NumericType type) {
      return new Param(name, false, type, Access.READ);
    }
  }

  private final Class<?> owner;
  private final String name;
  private final String module;
  private final int[] workgroup;
  private final List<Param> params;
  private final CpuBody cpuBody;
  private final int[] scalarOffsets;
  private final int pushConstantBytes;
  private final int bufferCount;

  /**
   * @param owner the class that declares the kernel; its class loader finds {@code module}
   * @param name the kernel's method name
   * @param module the SPIR-V resource name, relative to {@code owner}'s package
   * @param workgroup the workgroup size, three entries
   * @param params the kernel's parameters in declaration order
   * @param cpuBody calls the kernel's Java method with the arguments unboxed
   */
  public KernelSpec(Class<?> owner, String name, String module, int[] workgroup, List<Param> params, CpuBody cpuBody) {
    if (workgroup.length != 3) {
      throw new IllegalArgumentException("workgroup needs 3 entries: " + Arrays.toString(workgroup));
    }
    this.owner = Objects.requireNonNull(owner);
    this.name = Objects.requireNonNull(name);
    this.module = Objects.requireNonNull(module);
    this.workgroup = workgroup.clone();
    this.params = List.copyOf(params);
    this.cpuBody = Objects.requireNonNull(cpuBody);
    // the launch ABI's layout, derived once: launches read it on every dispatch
    List<Param> scalars = this.params.stream().filter(p -> !p.isBuffer()).toList();
    this.scalarOffsets = new int[scalars.size()];
    int end = LAUNCH_BYTES;
    for (int i = 0; i < scalarOffsets.length; i++) {
      int size = scalars.get(i).type().bytes();
      scalarOffsets[i] = Math.ceilDiv(end, size) * size;
      end = scalarOffsets[i] + size;
    }
    this.pushConstantBytes = end;
    this.bufferCount = this.params.size() - scalars.size();
  }

  public Class<?> owner() {
    return owner;
  }

  public String name() {
    return name;
  }

  public String module() {
    return module;
  }

  /** Workgroup size along {@code axis} (0, 1 or 2). */
  public int workgroup(int axis) {
    return workgroup[axis];
  }

  public List<Param> params() {
    return params;
  }

  public CpuBody cpuBody() {
    return cpuBody;
  }

  /** Offsets of the scalar parameters in the push-constant block, in parameter order. */
  public int[] scalarOffsets() {
    return scalarOffsets.clone();
  }

  /** Size of the push-constant block: 16 bytes of launch geometry, then the scalars. */
  public int pushConstantBytes() {
    return pushConstantBytes;
  }

  public int bufferCount() {
    return bufferCount;
  }

  /** {@code Owner#name}, for messages. */
  @Override
  public String toString() {
    return owner.getName() + "#" + name;
  }
}
