package dev.kiln.processor.model;

import dev.kiln.annotations.Access;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Workgroup;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * A kernel as its declaration shows it, before its body is looked at: enough to write its launcher.
 *
 * @param owner the class that declares the kernel
 * @param flatName the owner's name inside its package, nested names joined by '_'
 */
public record KernelSignature(
    TypeElement owner,
    String packageName,
    String flatName,
    ExecutableElement method,
    Workgroup workgroup,
    boolean boundsChecks,
    boolean selfComposable,
    boolean readsYOrZ,
    List<Param> params,
    List<Membership> groups) {

  /** A parameter: a buffer (array) or a scalar, with the access a {@code @Buffer} declares. */
  public record Param(String name, PrimType type, boolean isBuffer, Optional<Access> declared) {}

  /** A {@code @FuseGroup}: the group's name and the kernel's order in it. */
  public record Membership(String group, int order) {}

  public KernelSignature {
    params = List.copyOf(params);
    groups = List.copyOf(groups);
  }

  /** The same kernel with the elements javac has for it now. */
  public KernelSignature rebind(TypeElement currentOwner, ExecutableElement currentMethod) {
    return new KernelSignature(
        currentOwner,
        packageName,
        flatName,
        currentMethod,
        workgroup,
        boundsChecks,
        selfComposable,
        readsYOrZ,
        params,
        groups);
  }

  /**
   * Whether its launcher takes grids: its workgroup has a y or z size, or it reads an id of y or z
   * ({@link AxisReads}); a count along x would launch one row of either.
   */
  public boolean takesGrids() {
    return workgroup.y() > 1 || workgroup.z() > 1 || readsYOrZ;
  }

  public String name() {
    return method.getSimpleName().toString();
  }

  /** The SPIR-V resource, relative to the owner's package. */
  public String moduleResource() {
    return flatName + "." + name() + ".spv";
  }

  /** The simple name of the launcher class generated for the owner. */
  public String launcherName() {
    return launcherName(flatName);
  }

  public static String launcherName(String flatName) {
    return flatName + "Kernels";
  }
}
