package dev.kiln.processor.launcher;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import dev.kiln.annotations.Access;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.model.KernelSignature;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;

/**
 * Writes the launcher class of one kernel class: per kernel a {@code KernelSpec} constant and two
 * methods, one taking device arrays and one taking Java arrays. The launcher depends only on the
 * kernels' signatures, so it exists before code that calls it is type-checked.
 */
public final class LauncherWriter {
  static final String RUNTIME = "dev.kiln";
  static final ClassName DEVICE = ClassName.get(RUNTIME, "Device");
  static final ClassName BATCH = ClassName.get(RUNTIME, "Batch");
  static final ClassName KERNEL_SPEC = ClassName.get(RUNTIME, "KernelSpec");
  static final ClassName PARAM = KERNEL_SPEC.nestedClass("Param");
  static final ClassName NUMERIC_TYPE = ClassName.get(RUNTIME, "NumericType");
  static final ClassName GRID = ClassName.get(RUNTIME, "Grid");
  static final ClassName ACCESS = ClassName.get(Access.class);
  static final ClassName GENERATED = ClassName.get("javax.annotation.processing", "Generated");
  static final String PROCESSOR = "dev.kiln.processor.KilnProcessor";

  private LauncherWriter() {}

  /** The launcher source for {@code kernels}, all declared in {@code owner}. */
  public static JavaFile launcher(TypeElement owner, List<KernelSignature> kernels) {
    KernelSignature first = kernels.getFirst();
    ClassName ownerName = ClassName.get(owner);
    TypeSpec.Builder type = TypeSpec.classBuilder(first.launcherName())
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addAnnotation(AnnotationSpec.builder(GENERATED)
            .addMember("value", "$S", PROCESSOR)
            .addMember("comments", "$S", "from " + owner.getQualifiedName())
            .build())
        .addJavadoc("Launchers for the kernels of {@link $T}.\n", ownerName)
        .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    for (KernelSignature kernel : kernels) {
      type.addField(spec(ownerName, kernel));
      boolean buffers = kernel.params().stream().anyMatch(KernelSignature.Param::isBuffer);
      boolean multiAxis = kernel.workgroup().y() > 1 || kernel.workgroup().z() > 1;
      for (boolean grid : multiAxis ? new boolean[] {false, true} : new boolean[] {false}) {
        type.addMethod(launch(ownerName, kernel, Target.DEVICE_ARRAYS, grid));
        if (buffers) {
          type.addMethod(launch(ownerName, kernel, Target.JAVA_ARRAYS, grid));
        }
        type.addMethod(launch(ownerName, kernel, Target.BATCH, grid));
      }
    }
    return JavaFile.builder(first.packageName(), type.build()).skipJavaLangImports(true).indent("  ").build();
  }

  private static FieldSpec spec(ClassName owner, KernelSignature kernel) {
    CodeBlock params = kernel.params().stream()
        .map(LauncherWriter::paramSpec)
        .collect(CodeBlock.joining(",\n"));
    CodeBlock call = CodeBlock.of("args -> $T.$L($L)", owner, kernel.name(), unboxedArguments(kernel));
    CodeBlock workgroup = CodeBlock.of("new int[] {$L, $L, $L}",
        kernel.workgroup().x(), kernel.workgroup().y(), kernel.workgroup().z());
    return FieldSpec.builder(KERNEL_SPEC, constantName(kernel.name()), Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
        .initializer("new $T(\n$>$>$T.class, $S, $S, $L,\n$T.of(\n$>$>$L$<$<),\n$L$<$<)", KERNEL_SPEC, owner, kernel.name(),
            kernel.moduleResource(), workgroup, List.class, params, call)
        .build();
  }

  private static CodeBlock paramSpec(KernelSignature.Param param) {
    if (param.isBuffer()) {
      Access access = param.declared().orElse(Access.READ_WRITE);
      return CodeBlock.of("$T.buffer($S, $T.$L, $T.$L)", PARAM, param.name(), NUMERIC_TYPE, param.type(), ACCESS, access);
    }
    return CodeBlock.of("$T.scalar($S, $T.$L)", PARAM, param.name(), NUMERIC_TYPE, param.type());
  }

  /** {@code (float) args[0], (float[]) args[1], ...}: the CPU backend's call of the kernel method. */
  private static String unboxedArguments(KernelSignature kernel) {
    List<String> arguments = new ArrayList<>();
    for (int i = 0; i < kernel.params().size(); i++) {
      KernelSignature.Param param = kernel.params().get(i);
      arguments.add("(" + param.type().javaName() + (param.isBuffer() ? "[]" : "") + ") args[" + i + "]");
    }
    return String.join(", ", arguments);
  }

  /** What a launcher method runs on: a device with device arrays or Java arrays, or a batch. */
  private enum Target {
    DEVICE_ARRAYS,
    JAVA_ARRAYS,
    BATCH
  }

  private static MethodSpec launch(ClassName owner, KernelSignature kernel, Target target, boolean grid) {
    boolean onDevice = target != Target.JAVA_ARRAYS;
    Set<String> taken = kernel.params().stream().map(KernelSignature.Param::name).collect(Collectors.toSet());
    String device = unique(target == Target.BATCH ? "batch" : "device", taken);
    String count = unique(grid ? "grid" : "count", taken);
    String invocations = grid ? "the invocations of {@code " + count + "}" : "{@code " + count + "} invocations along x";
    MethodSpec.Builder method = MethodSpec.methodBuilder(kernel.name())
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .addParameter(target == Target.BATCH ? BATCH : DEVICE, device)
        .addParameter(grid ? GRID : TypeName.INT, count);
    for (KernelSignature.Param param : kernel.params()) {
      method.addParameter(ParameterSpec.builder(parameterType(param, onDevice), param.name()).build());
    }
    String arguments = kernel.params().stream().map(KernelSignature.Param::name).collect(Collectors.joining(", "));
    String separator = arguments.isEmpty() ? "" : ", ";
    if (target == Target.BATCH) {
      method.addJavadoc("Records a launch of {@link $T#$L} into {@code $L} for $L, on device arrays.\n", owner,
          kernel.name(), device, invocations);
      method.addStatement("$L.dispatch($L, $L$L$L)", device, constantName(kernel.name()), count, separator, arguments);
    } else if (onDevice) {
      method.addJavadoc("Runs {@link $T#$L} on {@code $L} for $L, on device arrays, and waits for\n"
          + "it.\n", owner, kernel.name(), device, invocations);
      method.addStatement("$L.dispatch($L, $L$L$L)", device, constantName(kernel.name()), count, separator, arguments);
    } else {
      method.addJavadoc("Runs {@link $T#$L} on {@code $L} for $L, on Java arrays: copies them to the\n"
          + "device, runs, and copies back every array the kernel may write.\n", owner, kernel.name(), device,
          invocations);
      method.addStatement("$L.run($L, $L$L$L)", device, constantName(kernel.name()), count, separator, arguments);
    }
    return method.build();
  }

  private static TypeName parameterType(KernelSignature.Param param, boolean onDevice) {
    if (!param.isBuffer()) {
      return primitive(param.type());
    }
    if (onDevice) {
      return ClassName.get(RUNTIME, switch (param.type()) {
        case INT -> "IntArray";
        case LONG -> "LongArray";
        case FLOAT -> "FloatArray";
        case DOUBLE -> "DoubleArray";
        case BOOLEAN -> throw new IllegalArgumentException("no boolean buffers");
      });
    }
    return com.palantir.javapoet.ArrayTypeName.of(primitive(param.type()));
  }

  private static TypeName primitive(PrimType type) {
    return switch (type) {
      case INT -> TypeName.INT;
      case LONG -> TypeName.LONG;
      case FLOAT -> TypeName.FLOAT;
      case DOUBLE -> TypeName.DOUBLE;
      case BOOLEAN -> TypeName.BOOLEAN;
    };
  }

  private static String unique(String name, Set<String> taken) {
    String candidate = name;
    while (taken.contains(candidate)) {
      candidate = candidate + "_";
    }
    return candidate;
  }

  /** {@code powerSum} becomes {@code POWER_SUM}. */
  static String constantName(String kernel) {
    return kernel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase();
  }
}
