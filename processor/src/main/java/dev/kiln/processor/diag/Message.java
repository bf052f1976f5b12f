package dev.kiln.processor.diag;

/**
 * Every diagnostic Kiln reports: a stable id (tests and users search for it), a message format and
 * a fix. Rendered as {@code [id] message. Fix: fix}. Formats use {@link String#format} arguments,
 * which {@link Errors}' factories supply by name.
 */
public enum Message {
  NOT_JAVAC(
      "kiln.compiler",
      "kernel '%s' is not compiled: Kiln compiles kernel bodies from javac's Tree API (com.sun.source), which this compiler (%s) does not offer",
      "build with javac, as Maven and Gradle do by default; Eclipse and VS Code's Java tooling compile with ecj, so turn annotation processing off for the project there and let the Maven or Gradle build make the launchers (IntelliJ IDEA builds with javac and needs nothing)"),
  KERNEL_NOT_STATIC(
      "kiln.kernel.notStatic",
      "kernel '%s' is an instance method; a kernel has no receiver object on the GPU",
      "declare it 'static void %1$s(...)'"),
  KERNEL_NOT_VOID(
      "kiln.kernel.notVoid",
      "kernel '%s' returns %s; invocations can only return results through buffers",
      "make it return void and write results into an array parameter"),
  KERNEL_PRIVATE(
      "kiln.kernel.private",
      "kernel '%s' is private, so the generated launcher %s cannot call it on the CPU backend",
      "make it package-private or wider"),
  KERNEL_GENERIC(
      "kiln.kernel.generic",
      "kernel '%s' has type parameters; kernels are compiled for concrete types",
      "remove the type parameters"),
  KERNEL_NO_BODY(
      "kiln.kernel.noBody",
      "kernel '%s' is %s and has no body; Kiln compiles a kernel's Java body for the GPU and runs it on the CPU",
      "give it a body"),
  KERNEL_THROWS(
      "kiln.kernel.throws",
      "kernel '%s' declares the checked exception %s; a kernel cannot throw one, and its launcher does not declare it",
      "remove it from the throws clause"),
  KERNEL_PARAMETERS(
      "kiln.kernel.parameters",
      "kernel '%s' takes %d parameter slots (long and double scalars take 2); its launcher adds a device and a count, and the JVM allows 255 in all",
      "pass fewer arrays, for example several arrays as one larger array"),
  LAUNCHER_NAME(
      "kiln.kernel.launcherName",
      "the launcher of this class's kernels would be %s, but that name is taken by %s",
      "rename this class or the other one, so that their launchers (the flat class name + 'Kernels') differ"),
  MODULE_SIZE(
      "kiln.kernel.moduleSize",
      "the SPIR-V of %s would be %d bytes; Kiln writes at most %d, as drivers take minutes to compile larger modules",
      "call helpers from loops rather than from each other's arguments, or split the kernel"),
  OUT_OF_MEMORY(
      "kiln.kernel.outOfMemory",
      "compiling %s ran out of memory (the JVM's heap is %d MB)",
      "split the kernel or its deepest expressions into locals and helpers, or give javac more heap (-J-Xmx)"),
  KERNEL_DUPLICATE(
      "kiln.kernel.duplicate",
      "class %s has more than one kernel named '%s'; kernels are found by name",
      "give each kernel of a class its own name"),
  KERNEL_ENCLOSING(
      "kiln.kernel.enclosing",
      "kernel '%s' is declared in %s, where the generated launcher cannot reach it",
      "declare kernels in a top-level class or in a non-private member class"),
  WORKGROUP_SHAPE(
      "kiln.kernel.workgroup",
      "@Kernel(workgroup = %s) must have 1 to 3 positive sizes with at most 1024 invocations in all",
      "use a size like {64}, {256} or {16, 16}"),
  PARAMETER_TYPE(
      "kiln.kernel.parameterType",
      "parameter '%s' has type %s; kernel parameters are int, long, float or double scalars, and arrays of those or of byte, short, char or boolean",
      "pass a byte, short, char or boolean value as an int and narrow it in the kernel; pass other data as a primitive array"),
  PUSH_CONSTANTS(
      "kiln.kernel.pushConstants",
      "kernel '%s' has %d scalar parameters, %d bytes of push constants with the launch's own 20 and alignment; Vulkan guarantees 128",
      "pass some of the scalars in a small buffer instead"),
  BUFFER_ACCESS(
      "kiln.buffer.access",
      "buffer '%s' is declared @Buffer(%s) but this %s it",
      "declare it @Buffer(%4$s), or remove the %5$s"),

  UNSUPPORTED_TYPE(
      "kiln.unsupported.type",
      "values of type %s are not supported in kernels; only the primitive types are",
      "%2$s"),
  UNSUPPORTED_LOCAL_ARRAY(
      "kiln.unsupported.localArray",
      "local array '%s' is not supported here; a local array is created with new float[N], new float[R][C] or"
          + " new float[D][R][C], every length given, or is workgroup memory",
      "declare 'float[] %1$s = new float[8];', or 'Gpu.sharedFloats(N)' at the top of the kernel, or pass the array as a parameter"),
  UNSUPPORTED_ALIAS("kiln.unsupported.alias", "array variable '%s' %s", "%3$s"),
  UNSUPPORTED_ARRAY_USE(
      "kiln.unsupported.arrayUse",
      "buffer '%s' can only be indexed or asked for its length here",
      "use %1$s[i] or %1$s.length"),
  UNSUPPORTED_FIELD(
      "kiln.unsupported.field",
      "field '%s' is not a compile-time constant; kernels can only read static final primitive constants",
      "pass the value as a kernel parameter, or make the field 'static final' with a constant initializer"),
  UNSUPPORTED_CALL(
      "kiln.unsupported.call",
      "call to %s is not supported in kernels; kernels call dev.kiln.Gpu intrinsics, the Math, StrictMath, Integer, Long, Float and Double methods that docs/KERNELS.md lists (calls), and static methods compiled with them",
      "compute with those methods instead; a method of your own must be static and compiled from source with the kernel, in its class or in another one"),
  UNSUPPORTED_PRINT(
      "kiln.unsupported.print",
      "%s prints, and a kernel cannot: the GPU has no console",
      "write the values to see into an int[] or float[] parameter kept for debugging, and print that array after the launch"),
  MATH_DOUBLE(
      "kiln.unsupported.mathDouble",
      "Math.%s computes in double, and the GPU has it for float only",
      "call Gpu.%1$s, its float counterpart"),
  HELPER_RECURSION(
      "kiln.helper.recursion",
      "%s calls itself, directly or through other helpers; kernels are inlined and cannot recurse",
      "rewrite the recursion as a loop"),
  HELPER_COMPILED(
      "kiln.helper.compiled",
      "%s is compiled code, from a library or an earlier build; Kiln inlines a helper from its source, which javac has only for the classes it compiles",
      "copy the method into the kernel's class, or compile its class together with the kernels"),
  HELPER_ARRAY(
      "kiln.helper.array",
      "the array passed for '%s' must be named directly: a buffer parameter, a workgroup array or one of the kernel's own arrays",
      "pass the array variable itself, not an expression that chooses one ('c ? a : b', or the row"
          + " 't[j]' of an array of two dimensions: pass 't' and 'j')"),
  HELPER_SETTING(
      "kiln.helper.setting",
      "the %s passed for '%s' must be a constant: a helper's matrix element types and layouts are part of the compiled kernel, fixed where each call is written, and only a helper of the kernel's own class takes them",
      "pass the constant itself (MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR) or the caller's own parameter that a constant was passed for, to a helper of the kernel's class"),
  SUBGROUP_LANE(
      "kiln.subgroup.lane",
      "the lane of Gpu.subgroupBroadcast must be a constant, non-negative index",
      "broadcast from a constant lane, such as 0"),
  SUBGROUP_CLUSTER(
      "kiln.subgroup.cluster",
      "the cluster size of Gpu.%s must be a constant power of two from 1 to 128",
      "pass a constant such as 4 or 8: a cluster is that many consecutive lanes of the subgroup"),
  LAUNCH_HIDDEN_AXIS(
      "kiln.launch.hiddenAxis",
      "kernel %s reads Gpu.%s(%d) in a helper its launcher could not see: launchers are written"
          + " before javac reads method bodies, so this one takes counts along x, which would"
          + " launch one row",
      "read the id in the kernel, or in a helper of its class that the call names, and pass it"
          + " on: then the launcher takes a Grid"),
  INTRINSIC_AXIS(
      "kiln.intrinsic.axis",
      "the axis of Gpu.%s must be the constant 0, 1 or 2",
      "write Gpu.%s(0) for x, 1 for y, 2 for z"),
  UNSUPPORTED_EXPRESSION(
      "kiln.unsupported.expression",
      "%s is not supported in kernels",
      "rewrite it with arithmetic on int, float and boolean values"),
  UNSUPPORTED_STATEMENT(
      "kiln.unsupported.statement",
      "%s is not supported in kernels",
      "rewrite it with if, for, while, do, break, continue and return"),
  SHARED_DECLARATION(
      "kiln.shared.declaration",
      "Gpu.%s can only initialize a local array declared at the top level of the kernel body, or at the top of a"
          + " helper called there as a statement of its own, with a constant positive length or an int parameter"
          + " of the kernel",
      "declare it first thing in the kernel, or in a helper that the kernel calls outside any if or loop:"
          + " 'float[] tile = Gpu.sharedFloats(256);' or 'Gpu.sharedFloats(n)' with 'int n' a parameter of the"
          + " kernel"),
  SHARED_LENGTH(
      "kiln.shared.length",
      "a workgroup array sized by a parameter cannot share a kernel with cooperative matrices: NVIDIA's driver"
          + " 580 loads tiles from workgroup memory wrongly beside such an array (docs/DRIVER-GAPS.md)",
      "give the array a constant length: 'Gpu.sharedFloats(TILE)' with 'static final int TILE = 256'"),
  PRIVATE_LENGTH(
      "kiln.private.length",
      "a kernel's own array needs a constant positive length",
      "write the length as a constant: 'new float[8]' or 'new float[SIZE]' with 'static final int SIZE = 8'"),
  PRIVATE_SIZE(
      "kiln.private.size",
      "with this array the kernel's own arrays take %d bytes per invocation; Kiln allows %d, as every invocation has its own copy",
      "keep large data in a buffer parameter, or share it in workgroup memory"),
  COPY_LENGTH(
      "kiln.copy.length",
      "System.arraycopy's length must be a constant from 1 to %d in a kernel (%d bytes of %s values, the most one copy moves: it is unrolled), not %s",
      "give the length as a constant expression, or copy in a loop of constant-length copies"),
  COPY_TYPES(
      "kiln.copy.types",
      "System.arraycopy copies between arrays of one element type; '%s' holds %s and '%s' holds %s (Java throws ArrayStoreException)",
      "copy element by element with a cast, or give both arrays one element type"),
  INDEX_CONSTANT(
      "kiln.index.constant",
      "index %d of %s '%s' is out of bounds in every launch (%s); Java throws ArrayIndexOutOfBoundsException wherever this runs",
      "index from 0 to the array's length - 1"),
  ATOMIC_TARGET(
      "kiln.atomic.target",
      "Gpu.%s updates an element of a buffer or a shared array; a private array is the invocation's own",
      "pass a buffer parameter or a workgroup array ('Gpu.sharedInts(N)' and the like) as the first argument, or update the private array with plain assignments"),
  UNSUPPORTED_LABEL(
      "kiln.unsupported.label",
      "a labelled %s is not supported; labels may name loops only",
      "label the loop to leave, or restructure with a flag"),
  UNSUPPORTED_RETURN_VALUE(
      "kiln.unsupported.returnValue",
      "a kernel returns nothing",
      "write the result into a buffer and use 'return;'"),

  RACY_UPDATE(
      "kiln.race.update",
      "this reads and writes an element of %s '%s' that other invocations may update at the same time; their updates can be lost, where Java's loop over the invocations would keep them",
      "use an atomic, such as 'Gpu.atomicAdd(%2$s, index, 1)', or give each invocation its own element"),
  RACY_WRITE(
      "kiln.race.write",
      "every invocation that gets here writes the same element of %s '%s', each a value of its own; which one stays is the device's choice, where Java's loop over the invocations keeps the last one's",
      "write it from one invocation (under 'if (Gpu.globalId(0) == 0)'), or give each invocation its own element"),
  RACE_BARRIER(
      "kiln.race.barrier",
      "the %s of workgroup array '%s' here and the %s on line %d may reach one element from two invocations of a workgroup with no Gpu.barrier() between them; the result then depends on which runs first",
      "call Gpu.barrier() between them where every invocation of the workgroup reaches it, or index so that each invocation touches only its own elements"),
  SUBGROUP_DIVERGENT(
      "kiln.subgroup.divergent",
      "not every lane of the subgroup is sure to reach this Gpu.%s: it is under a condition or in a loop that may differ between the lanes of a subgroup; which lanes take part then depends on how the GPU reconverges them, and the CPU backend throws rather than guess",
      "call it where every lane of the subgroup arrives (before the branch, or with & instead of &&) and use its result inside"),
  MATRIX_DIVERGENT(
      "kiln.matrix.divergent",
      "not every lane of the subgroup is sure to reach this cooperative-matrix operation: it is under a condition or in a loop that may differ between the lanes of a subgroup, or after a return only some take; the subgroup computes the matrix together, so the result is then undefined",
      "keep matrix operations where whole subgroups arrive: test what varies per lane (an index against a length, say) before the loop, or for whole tiles with values the subgroup shares (workgroup ids, subgroup ids, parameters)"),
  MATRIX_OPERAND(
      "kiln.matrix.operand",
      "an operand of this cooperative-matrix operation may differ between the lanes of a subgroup (it depends on a global, local or lane id, or on a value read from memory); all lanes must pass the same offset, stride and value",
      "compute the tile's place from values the subgroup shares: Gpu.workgroupId, Gpu.subgroupId, parameters and constants"),
  MATRIX_MEMORY(
      "kiln.matrix.memory",
      "Gpu.%s loads or stores a buffer parameter, or workgroup memory that holds the tile's elements as it has them, not an invocation's own array or workgroup memory of widened shorts",
      "pass the kernel's @Buffer array, or stage float16 tiles in Gpu.sharedPackedShorts(N) and accumulators in Gpu.sharedFloats(N)"),
  MATRIX_CONSTANT(
      "kiln.matrix.constant",
      "the %s of Gpu.%s must be a constant",
      "name the constant, such as MatrixLayout.ROW_MAJOR or MatrixElement.FLOAT16: the tile's type and layout are part of the compiled kernel"),
  MATRIX_ELEMENT(
      "kiln.matrix.element",
      "%s: a matrix variable holds one element type, and a multiply-add's A and B tiles hold the same one",
      "load the tiles of one variable, and both factors of a multiply-add, with the same MatrixElement (FLOAT16 or BFLOAT16); convert through a float buffer or workgroup memory where the types must change"),
  MATRIX_USE(
      "kiln.matrix.use",
      "a cooperative matrix can only be %s",
      "keep matrices in local variables that Gpu.loadMatrixA, loadMatrixB, loadAccumulator, fillAccumulator, multiplyAdd, scaleAccumulator and addAccumulators assign, and pass them to those methods and storeAccumulator only"),
  BARRIER_DIVERGENT(
      "kiln.barrier.divergent",
      "not every invocation of the workgroup is sure to reach this Gpu.barrier(): it is under a condition or in a loop that may differ between invocations, or after a return only some take; the GPU's behaviour is then undefined",
      "keep the barrier where every invocation gets to it, and guard the work around it instead: 'if (i < n) { ... }' around the accesses, not around the barrier"),
  GROUP_NAME(
      "kiln.group.name",
      "fuse group '%s' %s, so its launcher method cannot have that name",
      "name the group with a Java identifier that no kernel of the class uses, like \"post\""),
  GROUP_PUSH_CONSTANTS(
      "kiln.group.pushConstants",
      "fuse group '%s' has %d arms and %d scalar parameters: %d bytes of push constants with the launch's 20 and 12 per arm; Vulkan guarantees 128",
      "split the group, or pass some of the scalars in a small buffer"),
  GROUP_WITHOUT_KERNEL(
      "kiln.group.notKernel",
      "@FuseGroup on '%s', which is not a @Kernel; groups fuse kernels",
      "add @Kernel to the method, or remove @FuseGroup"),
  FUSION_SELF_ALIASING(
      "kiln.fusion.selfAliasing",
      "kernel '%s' is @Kernel(selfComposable = false) but is arm %d and again arm %d of group '%s'; it keeps state across invocations, and two copies in one dispatch would share it",
      "remove one of its @FuseGroup(\"%4$s\") annotations, or run the second copy in a group of its own"),
  FUSION_ALIASING(
      "kiln.fusion.aliasing",
      "fusion aliasing on buffer '%s' in group '%s': arm %d (%s, line %d) %s %s and arm %d (%s, line %d) %s %s, %s; no barrier can order that inside one dispatch",
      "run '%9$s' after '%4$s' in separate dispatches: give it another @FuseGroup (or none), or let it use a buffer that '%4$s' does not write"),
  FUSION_OVER_DISPATCH(
      "kiln.fusion.overDispatch",
      "group '%s' would run with workgroup %s: %d invocations, more than %d times the %d of its largest arm, arm %d (%s); arm %d (%s) widens it",
      "give the arms workgroups that grow along the same axis (all {256}, say), or put '%9$s' in another group"),
  FUSION_WORKGROUP_GEOMETRY(
      "kiln.fusion.workgroupGeometry",
      "group '%s' would run arm %d (%s) with workgroup %s instead of its own %s, and that arm %s, so what it computes depends on its workgroup",
      "give every arm of '%1$s' the workgroup %4$s, or put '%3$s' in another group"),
  FUSION_TYPE_CONFLICT(
      "kiln.fusion.typeConflict",
      "'%s' is %s in arm %d (%s) but %s in arm %d (%s) of group '%s'; the arms of a group share buffers and scalars by name",
      "rename the parameter in one of the kernels, or give it the same type in both"),
  FUSION_MATRICES(
      "kiln.fusion.matrices",
      "group '%s' cannot fuse arm %d (%s): it uses cooperative matrices, whose tiles Kiln does not follow across arms yet, so it cannot prove the fused kernel computes what the arms do",
      "launch '%3$s' on its own: remove it from the group"),

  INTERNAL(
      "kiln.internal",
      "internal error in Kiln while compiling kernel %s: %s; please report",
      "report it with the kernel's source; meanwhile rewrite the construct at this position");

  private final String id;
  private final String format;
  private final String fix;

  Message(String id, String format, String fix) {
    this.id = id;
    this.format = format;
    this.fix = fix;
  }

  public String id() {
    return id;
  }

  /**
   * {@code [id] message. Fix: fix.}, with {@code args} filled into message and fix alike; see
   * {@link Errors}.
   */
  String render(Object... args) {
    return "["
        + id
        + "] "
        + String.format(format, args)
        + ". Fix: "
        + String.format(fix, args)
        + ".";
  }
}
