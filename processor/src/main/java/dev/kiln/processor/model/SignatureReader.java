package dev.kiln.processor.model;

import com.sun.source.util.Trees;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;
import dev.kiln.processor.diag.Diagnostics;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.PushConstantBlock;
import dev.kiln.processor.ir.Workgroup;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;

/** Checks a {@code @Kernel} method's declaration and reads it into a {@link KernelSignature}. */
public final class SignatureReader {
  /** Vulkan guarantees 128 invocations per workgroup; every desktop GPU takes 1024. */
  static final int MAX_INVOCATIONS = 1024;

  /** The JVM's 255 parameter slots, less the launcher's device (or batch) and count (or grid). */
  static final int MAX_PARAMETER_SLOTS = 253;

  private final Diagnostics diagnostics;
  private final Trees trees;
  private final Elements elements;

  public SignatureReader(Diagnostics diagnostics, Trees trees, Elements elements) {
    this.diagnostics = diagnostics;
    this.trees = trees;
    this.elements = elements;
  }

  /** The signature, or empty after reporting every error of the declaration. */
  public Optional<KernelSignature> read(ExecutableElement method) {
    String name = method.getSimpleName().toString();
    boolean ok = true;
    if (!method.getModifiers().contains(Modifier.STATIC)) {
      diagnostics.error(method, Errors.kernelNotStatic(name));
      ok = false;
    }
    if (method.getReturnType().getKind() != TypeKind.VOID) {
      diagnostics.error(method, Errors.kernelNotVoid(name, method.getReturnType()));
      ok = false;
    }
    if (!method.getTypeParameters().isEmpty()) {
      diagnostics.error(method, Errors.kernelGeneric(name));
      ok = false;
    }
    for (Modifier bodiless : List.of(Modifier.NATIVE, Modifier.ABSTRACT)) {
      if (method.getModifiers().contains(bodiless)) {
        diagnostics.error(method, Errors.kernelNoBody(name, bodiless));
        ok = false;
      }
    }
    for (TypeMirror thrown : method.getThrownTypes()) {
      if (!unchecked(thrown)) {
        diagnostics.error(method, Errors.kernelThrows(name, thrown));
        ok = false;
      }
    }
    TypeElement owner = (TypeElement) method.getEnclosingElement();
    Optional<String> flatName = flatName(owner);
    if (flatName.isEmpty()) {
      diagnostics.error(
          method, Errors.kernelEnclosing(name, "class " + owner.getQualifiedName() + " (private)"));
      ok = false;
    } else if (method.getModifiers().contains(Modifier.PRIVATE)) {
      diagnostics.error(
          method, Errors.kernelPrivate(name, KernelSignature.launcherName(flatName.get())));
      ok = false;
    }
    Kernel kernel = method.getAnnotation(Kernel.class);
    Optional<Workgroup> workgroup = workgroup(kernel.workgroup());
    if (workgroup.isEmpty()) {
      diagnostics.error(
          method,
          Errors.workgroupShape(
              Arrays.toString(kernel.workgroup()).replace('[', '{').replace(']', '}')));
      ok = false;
    }
    List<KernelSignature.Param> params = new ArrayList<>();
    for (VariableElement parameter : method.getParameters()) {
      Optional<KernelSignature.Param> param = param(parameter);
      if (param.isPresent()) {
        params.add(param.get());
      } else {
        diagnostics.error(
            parameter, Errors.parameterType(parameter.getSimpleName(), parameter.asType()));
        ok = false;
      }
    }
    int slots = params.stream().mapToInt(p -> !p.isBuffer() && p.type().bytes() == 8 ? 2 : 1).sum();
    if (slots > MAX_PARAMETER_SLOTS) {
      diagnostics.error(method, Errors.kernelParameters(name, slots));
      ok = false;
    }
    List<PrimType> scalarTypes =
        params.stream().filter(p -> !p.isBuffer()).map(KernelSignature.Param::type).toList();
    int scalars = scalarTypes.size();
    int pushBytes = PushConstantBlock.size(1, scalarTypes);
    if (pushBytes > PushConstantBlock.LIMIT) {
      diagnostics.error(method, Errors.pushConstants(name, scalars, pushBytes));
      ok = false;
    }
    if (!ok) {
      return Optional.empty();
    }
    List<KernelSignature.Membership> groups =
        Arrays.stream(method.getAnnotationsByType(FuseGroup.class))
            .map(group -> new KernelSignature.Membership(group.value(), group.order()))
            .toList();
    return Optional.of(
        new KernelSignature(
            owner,
            packageOf(owner).getQualifiedName().toString(),
            flatName.get(),
            method,
            workgroup.get(),
            kernel.boundsChecks(),
            kernel.selfComposable(),
            AxisReads.beyondX(trees, elements, method),
            params,
            groups));
  }

  /**
   * Whether {@code thrown} is a RuntimeException or an Error, which a launcher need not declare.
   */
  private static boolean unchecked(TypeMirror thrown) {
    for (TypeMirror type = thrown; type instanceof DeclaredType declared; ) {
      TypeElement element = (TypeElement) declared.asElement();
      String name = element.getQualifiedName().toString();
      if (name.equals("java.lang.RuntimeException") || name.equals("java.lang.Error")) {
        return true;
      }
      type = element.getSuperclass();
    }
    return false;
  }

  private static Optional<Workgroup> workgroup(int[] sizes) {
    // each size at most the limit first: the product of three ints can wrap even in a long
    if (sizes.length < 1
        || sizes.length > 3
        || Arrays.stream(sizes).anyMatch(size -> size < 1 || size > MAX_INVOCATIONS)) {
      return Optional.empty();
    }
    Workgroup workgroup =
        new Workgroup(sizes[0], sizes.length > 1 ? sizes[1] : 1, sizes.length > 2 ? sizes[2] : 1);
    return workgroup.invocations() <= MAX_INVOCATIONS ? Optional.of(workgroup) : Optional.empty();
  }

  private static Optional<KernelSignature.Param> param(VariableElement parameter) {
    String name = parameter.getSimpleName().toString();
    TypeMirror type = parameter.asType();
    Buffer buffer = parameter.getAnnotation(Buffer.class);
    if (type instanceof ArrayType array) {
      return primType(array.getComponentType())
          .map(
              element ->
                  new KernelSignature.Param(
                      name, element, true, Optional.ofNullable(buffer).map(Buffer::value)));
    }
    if (buffer != null) {
      return Optional.empty();
    }
    return primType(type)
        .filter(scalar -> scalar != PrimType.BOOLEAN && !scalar.isNarrow())
        .map(scalar -> new KernelSignature.Param(name, scalar, false, Optional.empty()));
  }

  /** The kernel-language type of a Java type, if it has one. */
  public static Optional<PrimType> primType(TypeMirror type) {
    return switch (type.getKind()) {
      case INT -> Optional.of(PrimType.INT);
      case BYTE -> Optional.of(PrimType.BYTE);
      case SHORT -> Optional.of(PrimType.SHORT);
      case CHAR -> Optional.of(PrimType.CHAR);
      case LONG -> Optional.of(PrimType.LONG);
      case FLOAT -> Optional.of(PrimType.FLOAT);
      case DOUBLE -> Optional.of(PrimType.DOUBLE);
      case BOOLEAN -> Optional.of(PrimType.BOOLEAN);
      default -> Optional.empty();
    };
  }

  /**
   * The owner's name inside its package, nested names joined by '_'; empty for local, anonymous or
   * private classes, which a launcher in the package cannot reach.
   */
  private static Optional<String> flatName(TypeElement owner) {
    StringBuilder name = new StringBuilder(owner.getSimpleName());
    Element current = owner;
    while (true) {
      TypeElement type = (TypeElement) current;
      if (type.getModifiers().contains(Modifier.PRIVATE)) {
        return Optional.empty();
      }
      if (type.getNestingKind() == NestingKind.TOP_LEVEL) {
        return Optional.of(name.toString());
      }
      if (type.getNestingKind() != NestingKind.MEMBER) {
        return Optional.empty();
      }
      current = type.getEnclosingElement();
      if (!(current instanceof TypeElement)) {
        return Optional.empty();
      }
      name.insert(0, current.getSimpleName() + "_");
    }
  }

  private static PackageElement packageOf(Element element) {
    Element current = element;
    while (!(current instanceof PackageElement pkg)) {
      current = current.getEnclosingElement();
    }
    return pkg;
  }
}
