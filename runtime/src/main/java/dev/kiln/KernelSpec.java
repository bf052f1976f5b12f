package dev.kiln;

import dev.kiln.abi.LaunchAbi;
import dev.kiln.annotations.Access;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What the runtime needs to know about one compiled kernel or fuse group. Generated launchers
 * create one per kernel and per group; user code has no reason to.
 *
 * <p>The launch ABI (bindings, push-constant layout, faults) is {@link LaunchAbi}, which the
 * processor writes modules by; a spec derives each parameter's slot from it once ({@link #slot}).
 *
 * <p>A group's parameters are the union of its arms' (each name once, in first-seen order); each
 * {@link Arm} maps its kernel's parameters to the group's. The CPU backend runs a group as its arms
 * one after the other, each over its own grid; Vulkan runs the fused module in one dispatch.
 */
public final class KernelSpec {

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

  /**
   * An arm of a group: its kernel, and for each of the kernel's parameters the index of the group
   * parameter it receives.
   */
  public record Arm(KernelSpec kernel, int[] params) {
    public Arm {
      Objects.requireNonNull(kernel);
      params = params.clone();
    }

    @Override
    public int[] params() {
      return params.clone();
    }

    /** The kernel's arguments, picked from the group's. */
    public Object[] arguments(Object[] groupArgs) {
      Object[] args = new Object[params.length];
      for (int i = 0; i < params.length; i++) {
        args[i] = groupArgs[params[i]];
      }
      return args;
    }
  }

  private final Class<?> owner;
  private final String name;
  private final String module;
  private final int[] workgroup;
  private final List<Param> params;
  private final CpuBody cpuBody;
  private final List<Arm> arms;
  private final int[] slots;
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
    this(owner, name, module, workgroup, params, Objects.requireNonNull(cpuBody), List.of());
  }

  /**
   * A fuse group.
   *
   * @param workgroup the fused workgroup size, three entries
   * @param params the union of the arms' parameters
   * @param arms the arms in group order
   */
  public static KernelSpec group(Class<?> owner, String name, String module, int[] workgroup, List<Param> params,
      List<Arm> arms) {
    if (arms.isEmpty()) {
      throw new IllegalArgumentException("group " + name + " has no arms");
    }
    return new KernelSpec(owner, name, module, workgroup, params, null, arms);
  }

  private KernelSpec(Class<?> owner, String name, String module, int[] workgroup, List<Param> params, CpuBody cpuBody,
      List<Arm> arms) {
    if (workgroup.length != 3) {
      throw new IllegalArgumentException("workgroup needs 3 entries: " + Arrays.toString(workgroup));
    }
    this.owner = Objects.requireNonNull(owner);
    this.name = Objects.requireNonNull(name);
    this.module = Objects.requireNonNull(module);
    this.workgroup = workgroup.clone();
    this.params = List.copyOf(params);
    this.cpuBody = cpuBody;
    this.arms = List.copyOf(arms);
    for (Arm arm : this.arms) {
      for (int index : arm.params) {
        Objects.checkIndex(index, this.params.size());
      }
    }
    // the launch ABI's layout, derived once: launches read it on every dispatch
    this.slots = new int[this.params.size()];
    int end = LaunchAbi.scalarsStart(this.arms.size());
    int buffers = 0;
    for (int i = 0; i < slots.length; i++) {
      Param param = this.params.get(i);
      if (param.isBuffer()) {
        slots[i] = buffers++;
      } else {
        int size = param.type().bytes();
        slots[i] = Math.ceilDiv(end, size) * size;
        end = slots[i] + size;
      }
    }
    this.pushConstantBytes = end;
    this.bufferCount = buffers;
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

  /** Calls the kernel's Java method; null for a group, whose arms have theirs. */
  public CpuBody cpuBody() {
    return cpuBody;
  }

  /** The arms of a group in group order; empty for a kernel. */
  public List<Arm> arms() {
    return arms;
  }

  /** How many grids a launch takes: one per arm of a group, one for a kernel. */
  public int gridCount() {
    return Math.max(1, arms.size());
  }

  /** Whether the push constants hold each arm's grid (a group of two or more arms). */
  public boolean hasArmGrids() {
    return LaunchAbi.hasArmGrids(arms.size());
  }

  /** The offset of arm {@code arm}'s grid in the push-constant block, where {@link #hasArmGrids()}. */
  public int armGridOffset(int arm) {
    return LaunchAbi.armGridOffset(arm);
  }

  /**
   * Where parameter {@code param} goes in a launch: a buffer's binding in descriptor set 0, a
   * scalar's offset in the push-constant block.
   */
  public int slot(int param) {
    return slots[param];
  }

  /** Size of the push-constant block: 16 bytes of launch geometry, arm grids, then the scalars. */
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
