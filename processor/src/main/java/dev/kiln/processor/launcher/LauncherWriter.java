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
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.NumericType;
import dev.kiln.annotations.Access;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Workgroup;
import dev.kiln.processor.model.GroupSignature;
import dev.kiln.processor.model.KernelSignature;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;

/**
 * Writes the launcher class of one kernel class: per kernel and per fuse group a {@code KernelSpec}
 * constant and methods taking device arrays, Java arrays or a batch, sized by one count (or grid)
 * and, for a group of several arms, by one per arm. The launcher depends only on the kernels'
 * signatures, so it exists before code that calls it is type-checked.
 */
public final class LauncherWriter {
  static final String RUNTIME = "dev.kiln";

  /** What only generated code uses: the runtime module exports it, not for users. */
  static final String INTERNAL = "dev.kiln.internal";

  static final ClassName DEVICE = ClassName.get(RUNTIME, "Device");
  static final ClassName DEVICE_SET = ClassName.get(RUNTIME, "DeviceSet");
  static final ClassName SHARDED_ARRAY = ClassName.get(RUNTIME, "ShardedArray");
  static final ClassName BATCH = ClassName.get(RUNTIME, "Batch");
  static final ClassName GRID = ClassName.get(RUNTIME, "Grid");
  static final ClassName KERNEL_SPEC = ClassName.get(KernelSpec.class);
  static final ClassName PARAM = KERNEL_SPEC.nestedClass("Param");
  static final ClassName NUMERIC_TYPE = ClassName.get(NumericType.class);
  static final ClassName DISPATCH = ClassName.get(INTERNAL, "Dispatch");
  static final ClassName METHOD_HANDLES = ClassName.get(MethodHandles.class);
  static final ClassName ACCESS = ClassName.get(Access.class);
  static final ClassName GENERATED = ClassName.get("javax.annotation.processing", "Generated");
  static final String PROCESSOR = "dev.kiln.processor.KilnProcessor";

  private LauncherWriter() {}

  /**
   * The launcher source for {@code kernels} and {@code groups}, all declared in {@code owner};
   * marked {@code @Generated} where {@code markGenerated} (a named module that does not read {@code
   * java.compiler} cannot see that annotation).
   */
  public static JavaFile launcher(
      TypeElement owner,
      List<KernelSignature> kernels,
      List<GroupSignature> groups,
      boolean markGenerated) {
    KernelSignature first = kernels.getFirst();
    ClassName ownerName = ClassName.get(owner);
    TypeSpec.Builder type =
        TypeSpec.classBuilder(first.launcherName()).addModifiers(Modifier.PUBLIC, Modifier.FINAL);
    if (markGenerated) {
      type.addAnnotation(
          AnnotationSpec.builder(GENERATED)
              .addMember("value", "$S", PROCESSOR)
              .addMember("comments", "$S", "from " + owner.getQualifiedName())
              .build());
    }
    type.addJavadoc(
            "Launchers for the kernels$L of {@link $T}.\n",
            groups.isEmpty() ? "" : " and fuse groups",
            ownerName)
        .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build());
    // spec constants differ from each other, from every parameter name, which would shadow them,
    // and
    // from the kernel class's simple names, which they would hide (kernel 'k' of class 'K' made a
    // constant 'K' that hid the class in 'K.k(...)'; Kiln's own types are named in mixed case,
    // which
    // an upper-case constant never is)
    Set<String> constants = new HashSet<>(ownerName.simpleNames());
    kernels.forEach(kernel -> kernel.params().forEach(param -> constants.add(param.name())));
    Map<String, String> kernelConstants = new HashMap<>();
    List<Launchable> launchables = new ArrayList<>();
    for (KernelSignature kernel : kernels) {
      String constant = unique(constantName(kernel.name()), constants);
      constants.add(constant);
      kernelConstants.put(kernel.name(), constant);
      type.addField(kernelSpec(ownerName, kernel, constant));
      launchables.add(
          new Launchable(
              kernel.name(),
              constant,
              kernel.params(),
              List.of(),
              CodeBlock.of("{@link $T#$L}", ownerName, kernel.name()),
              kernel.takesGrids()));
    }
    for (GroupSignature group : groups) {
      if (!group.consistent()) {
        continue; // fusion reports the conflict
      }
      String constant = unique(constantName(group.name()) + "_GROUP", constants);
      constants.add(constant);
      type.addField(groupSpec(ownerName, group, constant, kernelConstants));
      CodeBlock arms =
          group.arms().stream()
              .map(arm -> CodeBlock.of("{@link $T#$L}", ownerName, arm.name()))
              .collect(CodeBlock.joining(", then "));
      launchables.add(
          new Launchable(
              group.name(),
              constant,
              group.params(),
              group.arms().stream().map(KernelSignature::name).toList(),
              CodeBlock.of("the fuse group {@code $L} ($L) as one dispatch", group.name(), arms),
              group.takesGrids()));
    }
    for (Launchable launchable : launchables) {
      boolean buffers = launchable.params().stream().anyMatch(KernelSignature.Param::isBuffer);
      for (Counts counts : launchable.counts()) {
        type.addMethod(launch(launchable, Target.DEVICE_ARRAYS, counts));
        if (buffers) {
          type.addMethod(launch(launchable, Target.JAVA_ARRAYS, counts));
        }
        if (buffers && counts == Counts.ONE_COUNT) {
          type.addMethod(launch(launchable, Target.SPLIT, counts));
          type.addMethod(launch(launchable, Target.SHARDED, counts));
        }
        type.addMethod(launch(launchable, Target.BATCH, counts));
      }
    }
    return JavaFile.builder(first.packageName(), type.build())
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  /**
   * A kernel or group as its launcher methods see it: a name, a spec constant, parameters and, for
   * a group, its arms' kernel names; {@code subject} is the Javadoc's name for what runs.
   */
  private record Launchable(
      String name,
      String constant,
      List<KernelSignature.Param> params,
      List<String> arms,
      CodeBlock subject,
      boolean grids) {
    /**
     * The ways a launch of it is sized: one count for all, and one per arm for a group of several;
     * grids instead of counts where a kernel reads y or z or its workgroup has a y or z size, whose
     * launches a count along x would silently cut to one row.
     */
    List<Counts> counts() {
      List<Counts> counts = new ArrayList<>(List.of(grids ? Counts.ONE_GRID : Counts.ONE_COUNT));
      if (arms.size() > 1) {
        counts.add(grids ? Counts.ARM_GRIDS : Counts.ARM_COUNTS);
      }
      return counts;
    }
  }

  /** How a launcher method sizes the launch. */
  private enum Counts {
    ONE_COUNT,
    ONE_GRID,
    ARM_COUNTS,
    ARM_GRIDS;

    boolean grid() {
      return this == ONE_GRID || this == ARM_GRIDS;
    }

    boolean perArm() {
      return this == ARM_COUNTS || this == ARM_GRIDS;
    }
  }

  private static FieldSpec kernelSpec(ClassName owner, KernelSignature kernel, String constant) {
    CodeBlock call =
        CodeBlock.of("args -> $T.$L($L)", owner, kernel.name(), unboxedArguments(kernel));
    return FieldSpec.builder(
            KERNEL_SPEC, constant, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
        .initializer(
            "new $T(\n$>$>$T.lookup(), $T.class, $S, $S, $L,\n$T.of(\n$>$>$L$<$<),\n$L$<$<)",
            KERNEL_SPEC,
            METHOD_HANDLES,
            owner,
            kernel.name(),
            kernel.moduleResource(),
            workgroup(kernel.workgroup()),
            List.class,
            params(kernel.params()),
            call)
        .build();
  }

  private static FieldSpec groupSpec(
      ClassName owner, GroupSignature group, String constant, Map<String, String> kernelConstants) {
    List<CodeBlock> arms = new ArrayList<>();
    for (int k = 0; k < group.arms().size(); k++) {
      String indices =
          java.util.Arrays.stream(group.armParams().get(k))
              .mapToObj(Integer::toString)
              .collect(Collectors.joining(", "));
      arms.add(
          CodeBlock.of(
              "new $T($L, new int[] {$L})",
              KERNEL_SPEC.nestedClass("Arm"),
              kernelConstants.get(group.arms().get(k).name()),
              indices));
    }
    return FieldSpec.builder(
            KERNEL_SPEC, constant, Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
        .initializer(
            "$T.group(\n$>$>$T.lookup(), $T.class, $S, $S, $L,\n$T.of(\n$>$>$L$<$<),\n$T.of(\n$>$>$L$<$<)$<$<)",
            KERNEL_SPEC,
            METHOD_HANDLES,
            owner,
            group.name(),
            group.moduleResource(),
            workgroup(group.workgroup()),
            List.class,
            params(group.params()),
            List.class,
            CodeBlock.join(arms, ",\n"))
        .build();
  }

  private static CodeBlock workgroup(Workgroup workgroup) {
    return CodeBlock.of("new int[] {$L, $L, $L}", workgroup.x(), workgroup.y(), workgroup.z());
  }

  private static CodeBlock params(List<KernelSignature.Param> params) {
    return params.stream().map(LauncherWriter::paramSpec).collect(CodeBlock.joining(",\n"));
  }

  private static CodeBlock paramSpec(KernelSignature.Param param) {
    if (param.isBuffer()) {
      Access access = param.declared().orElse(Access.READ_WRITE);
      return CodeBlock.of(
          "$T.buffer($S, $T.$L, $T.$L)",
          PARAM,
          param.name(),
          NUMERIC_TYPE,
          numeric(param),
          ACCESS,
          access);
    }
    return CodeBlock.of("$T.scalar($S, $T.$L)", PARAM, param.name(), NUMERIC_TYPE, numeric(param));
  }

  /**
   * The runtime's name of a parameter's element or scalar type (the ABI's, shared with the
   * runtime).
   */
  private static NumericType numeric(KernelSignature.Param param) {
    return NumericType.valueOf(param.type().name());
  }

  /**
   * {@code (float) args[0], (float[]) args[1], ...}: the CPU backend's call of the kernel method.
   */
  private static String unboxedArguments(KernelSignature kernel) {
    List<String> arguments = new ArrayList<>();
    for (int i = 0; i < kernel.params().size(); i++) {
      KernelSignature.Param param = kernel.params().get(i);
      arguments.add(
          "(" + param.type().javaName() + (param.isBuffer() ? "[]" : "") + ") args[" + i + "]");
    }
    return String.join(", ", arguments);
  }

  /**
   * What a launcher method runs on: a device with device arrays or Java arrays, a batch, or devices
   * splitting it on Java arrays or on sharded arrays.
   */
  private enum Target {
    DEVICE_ARRAYS,
    JAVA_ARRAYS,
    BATCH,
    SPLIT,
    SHARDED
  }

  private static MethodSpec launch(Launchable launchable, Target target, Counts counts) {
    Set<String> taken =
        launchable.params().stream().map(KernelSignature.Param::name).collect(Collectors.toSet());
    String device =
        unique(
            switch (target) {
              case BATCH -> "batch";
              case SPLIT, SHARDED -> "devices";
              case DEVICE_ARRAYS, JAVA_ARRAYS -> "device";
            },
            taken);
    taken.add(device);
    MethodSpec.Builder method =
        MethodSpec.methodBuilder(launchable.name())
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .addParameter(
                switch (target) {
                  case BATCH -> BATCH;
                  case SPLIT, SHARDED -> DEVICE_SET;
                  case DEVICE_ARRAYS, JAVA_ARRAYS -> DEVICE;
                },
                device);
    List<String> countNames = new ArrayList<>();
    if (counts.perArm()) {
      Map<String, Integer> occurrences = new HashMap<>();
      for (String arm : launchable.arms()) {
        int occurrence = occurrences.merge(arm, 1, Integer::sum);
        String name =
            unique(
                arm + (counts.grid() ? "Grid" : "Count") + (occurrence > 1 ? occurrence : ""),
                taken);
        taken.add(name);
        countNames.add(name);
      }
    } else {
      countNames.add(unique(counts.grid() ? "grid" : "count", taken));
    }
    for (String name : countNames) {
      method.addParameter(counts.grid() ? GRID : TypeName.INT, name);
    }
    for (KernelSignature.Param param : launchable.params()) {
      method.addParameter(
          ParameterSpec.builder(parameterType(param, target), param.name()).build());
    }
    String size =
        switch (counts) {
          case ONE_COUNT, ONE_GRID -> countNames.getFirst();
          case ARM_COUNTS -> "new int[] {" + String.join(", ", countNames) + "}";
          case ARM_GRIDS -> "new $T[] {" + String.join(", ", countNames) + "}";
        };
    String invocations =
        switch (counts) {
          case ONE_COUNT ->
              "{@code "
                  + countNames.getFirst()
                  + "} invocations along x"
                  + (launchable.arms().isEmpty() ? "" : " per arm");
          case ONE_GRID ->
              "the invocations of {@code "
                  + countNames.getFirst()
                  + "}"
                  + (launchable.arms().isEmpty() ? "" : " per arm");
          case ARM_COUNTS -> "each arm's count of invocations along x";
          case ARM_GRIDS -> "each arm's grid";
        };
    String arguments =
        launchable.params().stream()
            .map(KernelSignature.Param::name)
            .collect(Collectors.joining(", "));
    String separator = arguments.isEmpty() ? "" : ", ";
    String call =
        switch (target) {
          case DEVICE_ARRAYS -> "dispatch";
          case JAVA_ARRAYS, SPLIT -> "run";
          case SHARDED -> "runSharded";
          case BATCH -> "record";
        };
    switch (target) {
      case BATCH ->
          method.addJavadoc(
              "Records a launch of $L into {@code $L} for $L, on device arrays.\n",
              launchable.subject(),
              device,
              invocations);
      case DEVICE_ARRAYS ->
          method.addJavadoc(
              "Runs $L on {@code $L} for $L, on device arrays, and waits for\n" + "it.\n",
              launchable.subject(),
              device,
              invocations);
      case JAVA_ARRAYS ->
          method.addJavadoc(
              "Runs $L on {@code $L} for $L, on Java arrays: copies them to the\n"
                  + "device, runs, and copies back every array it may write.\n",
              launchable.subject(),
              device,
              invocations);
      case SPLIT ->
          method.addJavadoc(
              "Runs $L split across {@code $L} for $L, on Java arrays: each\n"
                  + "device runs a range of ids on copies of what it needs, and its range of each array it may write comes\n"
                  + "back. Throws {@code IllegalArgumentException} where the kernel cannot split (the message says why).\n",
              launchable.subject(),
              device,
              invocations);
      case SHARDED ->
          method.addJavadoc(
              "Runs $L split across {@code $L} for $L, on sharded arrays: each\n"
                  + "device runs the ids of its shards on the arrays it holds, after the halos it reads are brought up to date.\n"
                  + "Throws {@code IllegalArgumentException} where the kernel or the arrays' layout cannot split (the message\n"
                  + "says why).\n",
              launchable.subject(),
              device,
              invocations);
    }
    CodeBlock sizeCode =
        counts == Counts.ARM_GRIDS ? CodeBlock.of(size, GRID) : CodeBlock.of("$L", size);
    method.addStatement(
        "$T.$L($L, $L, $L$L$L)",
        DISPATCH,
        call,
        device,
        launchable.constant(),
        sizeCode,
        separator,
        arguments);
    return method.build();
  }

  private static TypeName parameterType(KernelSignature.Param param, Target target) {
    if (!param.isBuffer()) {
      return primitive(param.type());
    }
    if (target == Target.SHARDED) {
      return com.palantir.javapoet.ParameterizedTypeName.get(
          SHARDED_ARRAY, com.palantir.javapoet.ArrayTypeName.of(primitive(param.type())));
    }
    if (target == Target.DEVICE_ARRAYS || target == Target.BATCH) {
      return ClassName.get(
          RUNTIME,
          switch (param.type()) {
            case INT -> "IntArray";
            case LONG -> "LongArray";
            case FLOAT -> "FloatArray";
            case DOUBLE -> "DoubleArray";
            case BYTE -> "ByteArray";
            case SHORT -> "ShortArray";
            case CHAR -> "CharArray";
            case BOOLEAN -> "BooleanArray";
          });
    }
    return com.palantir.javapoet.ArrayTypeName.of(primitive(param.type()));
  }

  private static TypeName primitive(PrimType type) {
    return switch (type) {
      case INT -> TypeName.INT;
      case BYTE -> TypeName.BYTE;
      case SHORT -> TypeName.SHORT;
      case CHAR -> TypeName.CHAR;
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
