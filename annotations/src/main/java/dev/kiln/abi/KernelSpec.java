package dev.kiln.abi;

import dev.kiln.annotations.Access;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the runtime needs to know about one compiled kernel or fuse group. Generated launchers
 * create one per kernel and per group; user code has no reason to.
 *
 * <p>A spec carries its launcher's {@link MethodHandles.Lookup}: through it the runtime reads the
 * kernel's SPIR-V and finds its CPU twin, both in the kernel's own package, which a named module
 * need neither export nor open to Kiln.
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
    /**
     * Calls the kernel method with {@code args}, unboxed.
     *
     * @param args the kernel's arguments in parameter order
     */
    void invoke(Object[] args);
  }

  /**
   * A kernel parameter: a buffer (Java array) or a scalar push constant.
   *
   * @param name the parameter's name
   * @param isBuffer whether it is a buffer, else a scalar
   * @param type the element or scalar type
   * @param access the buffer's access as its {@code @Buffer} declares it, READ_WRITE where it has
   *     none (the body is checked against a declared one); READ for a scalar
   */
  public record Param(String name, boolean isBuffer, NumericType type, Access access) {
    /** Checks that name, type and access are present. */
    public Param {
      Objects.requireNonNull(name);
      Objects.requireNonNull(type);
      Objects.requireNonNull(access);
    }

    /**
     * A buffer parameter.
     *
     * @param name the parameter's name
     * @param type the element type
     * @param access its declared access, READ_WRITE where it declares none
     * @return the parameter
     */
    public static Param buffer(String name, NumericType type, Access access) {
      return new Param(name, true, type, access);
    }

    /**
     * A scalar parameter, a push constant.
     *
     * @param name the parameter's name
     * @param type its type
     * @return the parameter
     */
    public static Param scalar(String name, NumericType type) {
      return new Param(name, false, type, Access.READ);
    }
  }

  /**
   * An arm of a group: its kernel, and for each of the kernel's parameters the index of the group
   * parameter it receives.
   *
   * @param kernel the arm's kernel
   * @param params for each kernel parameter, the group parameter it receives
   */
  public record Arm(KernelSpec kernel, int[] params) {
    /** Copies {@code params}, as the accessor does. */
    public Arm {
      Objects.requireNonNull(kernel);
      params = params.clone();
    }

    /**
     * For each kernel parameter, the group parameter it receives.
     *
     * @return a copy of the indices
     */
    @Override
    public int[] params() {
      return params.clone();
    }

    /**
     * The kernel's arguments, picked from the group's.
     *
     * @param groupArgs the group's arguments
     * @return the kernel's arguments
     */
    public Object[] arguments(Object[] groupArgs) {
      Object[] args = new Object[params.length];
      for (int i = 0; i < params.length; i++) {
        args[i] = groupArgs[params[i]];
      }
      return args;
    }
  }

  private static final MethodType GET_RESOURCE =
      MethodType.methodType(InputStream.class, String.class);

  private final MethodHandles.Lookup lookup;
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
   * The description of a module written by hand; null for one the processor wrote, read beside it.
   */
  private final KernelDescription given;

  /**
   * A kernel.
   *
   * @param lookup the launcher's full-privilege lookup, in {@code owner}'s package
   * @param owner the class that declares the kernel
   * @param name the kernel's method name
   * @param module the SPIR-V resource name, relative to {@code owner}'s package
   * @param workgroup the workgroup size, three entries
   * @param params the kernel's parameters in declaration order
   * @param cpuBody calls the kernel's Java method with the arguments unboxed
   */
  public KernelSpec(
      MethodHandles.Lookup lookup,
      Class<?> owner,
      String name,
      String module,
      int[] workgroup,
      List<Param> params,
      CpuBody cpuBody) {
    this(
        lookup,
        owner,
        name,
        module,
        workgroup,
        params,
        Objects.requireNonNull(cpuBody),
        List.of(),
        null);
  }

  /**
   * A fuse group.
   *
   * @param workgroup the fused workgroup size, three entries
   * @param params the union of the arms' parameters
   * @param arms the arms in group order
   * @param lookup the launcher's full-privilege lookup, in {@code owner}'s package
   * @param owner the class that declares the kernels
   * @param name the group's name
   * @param module the SPIR-V resource name, relative to {@code owner}'s package
   * @return the group's spec
   */
  public static KernelSpec group(
      MethodHandles.Lookup lookup,
      Class<?> owner,
      String name,
      String module,
      int[] workgroup,
      List<Param> params,
      List<Arm> arms) {
    if (arms.isEmpty()) {
      throw new IllegalArgumentException("group " + name + " has no arms");
    }
    return new KernelSpec(lookup, owner, name, module, workgroup, params, null, arms, null);
  }

  /**
   * This kernel, its module written by hand rather than by the processor, with what the runtime
   * needs to know of it: a benchmark's GLSL twin, say. Its parameters count as declared.
   *
   * @param description the module's description
   * @return the spec
   */
  public KernelSpec describedBy(KernelDescription description) {
    if (description.accesses().size() != params.size()) {
      throw new IllegalArgumentException(
          this
              + " has "
              + params.size()
              + " parameters; the description names "
              + description.accesses().size());
    }
    return new KernelSpec(
        lookup, owner, name, module, workgroup, params, cpuBody, arms, description);
  }

  private KernelSpec(
      MethodHandles.Lookup lookup,
      Class<?> owner,
      String name,
      String module,
      int[] workgroup,
      List<Param> params,
      CpuBody cpuBody,
      List<Arm> arms,
      KernelDescription given) {
    if (workgroup.length != 3) {
      throw new IllegalArgumentException(
          "workgroup needs 3 entries: " + Arrays.toString(workgroup));
    }
    if (!lookup.hasFullPrivilegeAccess()
        || !lookup.lookupClass().getPackageName().equals(owner.getPackageName())) {
      throw new IllegalArgumentException(
          "the lookup of "
              + owner.getName()
              + "'s kernel "
              + name
              + " must be MethodHandles.lookup() of a class in its package, not "
              + lookup);
    }
    this.lookup = lookup;
    this.owner = owner;
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
    int[] scalarBytes =
        this.params.stream().filter(p -> !p.isBuffer()).mapToInt(p -> p.type().bytes()).toArray();
    int[] offsets = LaunchAbi.scalarOffsets(this.arms.size(), scalarBytes);
    int buffers = 0;
    int scalars = 0;
    for (int i = 0; i < slots.length; i++) {
      slots[i] = this.params.get(i).isBuffer() ? buffers++ : offsets[scalars++];
    }
    this.pushConstantBytes = LaunchAbi.blockBytes(this.arms.size(), scalarBytes);
    this.bufferCount = buffers;
    this.given = given;
  }

  /**
   * The class that declares the kernel.
   *
   * @return the class
   */
  public Class<?> owner() {
    return owner;
  }

  /**
   * The kernel's or group's name.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * The SPIR-V resource name, relative to the owner's package.
   *
   * @return the resource name
   */
  public String module() {
    return module;
  }

  /**
   * Opens the SPIR-V module, read as the launcher reads its own package's resources (a named module
   * keeps them from Kiln's); null where it is missing.
   *
   * @return the stream, or null
   */
  public InputStream openModule() {
    return resource(module);
  }

  private InputStream resource(String resource) {
    try {
      MethodHandle getResource =
          lookup.findVirtual(Class.class, "getResourceAsStream", GET_RESOURCE);
      return (InputStream) getResource.invokeExact(owner, resource);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("cannot open " + resource + " of " + this, e);
    }
  }

  /**
   * The kernel's description ({@link KernelDescription}): the one {@link #describedBy} gave, or the
   * one the processor wrote beside the module, read as the module is; empty where there is neither.
   *
   * @return the description, or empty
   * @throws IllegalStateException where the resource cannot be read or is not a description
   */
  public Optional<KernelDescription> description() {
    if (given != null) {
      return Optional.of(given);
    }
    String resource = DescriptionCodec.resourceOf(module);
    try (InputStream in = resource(resource)) {
      return in == null ? Optional.empty() : Optional.of(DescriptionCodec.read(in.readAllBytes()));
    } catch (java.io.IOException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "cannot read " + resource + ", the description of " + this, e);
    }
  }

  /**
   * The CPU twin the processor wrote for this kernel or group, of type {@code type}: a static
   * method of {@code <Owner>$KilnCpu} (names from {@link LaunchAbi}), found through the launcher's
   * lookup; empty where the processor wrote none.
   *
   * @param type the twin's method type
   * @return the twin's method handle, or empty
   */
  public Optional<MethodHandle> cpuTwin(MethodType type) {
    String method = LaunchAbi.twinMethod(name, !arms.isEmpty());
    try {
      Class<?> twins = lookup.findClass(owner.getName() + LaunchAbi.TWINS_SUFFIX);
      return Optional.of(lookup.findStatic(twins, method, type));
    } catch (ClassNotFoundException | NoSuchMethodException absent) {
      return Optional.empty();
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(
          "the CPU twin of " + this + " is out of its launcher's reach", e);
    }
  }

  /**
   * Workgroup size along {@code axis} (0, 1 or 2).
   *
   * @param axis 0, 1 or 2
   * @return the size
   */
  public int workgroup(int axis) {
    return workgroup[axis];
  }

  /**
   * The parameters in declaration order (a group: the union of its arms').
   *
   * @return the parameters
   */
  public List<Param> params() {
    return params;
  }

  /**
   * Calls the kernel's Java method; null for a group, whose arms have theirs.
   *
   * @return the call, or null
   */
  public CpuBody cpuBody() {
    return cpuBody;
  }

  /**
   * The arms of a group in group order; empty for a kernel.
   *
   * @return the arms
   */
  public List<Arm> arms() {
    return arms;
  }

  /**
   * How many grids a launch takes: one per arm of a group, one for a kernel.
   *
   * @return the number of grids
   */
  public int gridCount() {
    return Math.max(1, arms.size());
  }

  /**
   * Whether the push constants hold each arm's grid (a group of two or more arms).
   *
   * @return whether arm grids are pushed
   */
  public boolean hasArmGrids() {
    return LaunchAbi.hasArmGrids(arms.size());
  }

  /**
   * The offset of arm {@code arm}'s grid in the push-constant block, where {@link #hasArmGrids()}.
   *
   * @param arm the arm's index
   * @return the offset in bytes
   */
  public int armGridOffset(int arm) {
    return LaunchAbi.armGridOffset(arm);
  }

  /**
   * Where parameter {@code param} goes in a launch: a buffer's binding in descriptor set 0, a
   * scalar's offset in the push-constant block.
   *
   * @param param the parameter's index
   * @return the binding or the offset
   */
  public int slot(int param) {
    return slots[param];
  }

  /**
   * Size of the push-constant block: 16 bytes of launch geometry, arm grids, then the scalars.
   *
   * @return the size in bytes
   */
  public int pushConstantBytes() {
    return pushConstantBytes;
  }

  /**
   * The number of buffer parameters.
   *
   * @return the count
   */
  public int bufferCount() {
    return bufferCount;
  }

  /** {@code Owner#name}, for messages. */
  @Override
  public String toString() {
    return owner.getName() + "#" + name;
  }
}
