package dev.kiln.processor.diag;

/**
 * One factory per catalogued message, with the message's arguments as named, typed parameters (as
 * javac's generated {@code Errors} class): a call with a missing or misplaced argument does not
 * compile. {@link Message} keeps the ids and templates; {@code MessagesTest} renders each one.
 */
public final class Errors {
  private Errors() {}

  /** {@code kiln.kernel.notStatic}. */
  public static Diagnostic kernelNotStatic(Object kernel) {
    return new Diagnostic(Message.KERNEL_NOT_STATIC, kernel);
  }

  /** {@code kiln.kernel.notVoid}. */
  public static Diagnostic kernelNotVoid(Object kernel, Object returnType) {
    return new Diagnostic(Message.KERNEL_NOT_VOID, kernel, returnType);
  }

  /** {@code kiln.kernel.private}. */
  public static Diagnostic kernelPrivate(Object kernel, String launcher) {
    return new Diagnostic(Message.KERNEL_PRIVATE, kernel, launcher);
  }

  /** {@code kiln.kernel.generic}. */
  public static Diagnostic kernelGeneric(Object kernel) {
    return new Diagnostic(Message.KERNEL_GENERIC, kernel);
  }

  /** {@code kiln.kernel.noBody}. */
  public static Diagnostic kernelNoBody(Object kernel, Object modifier) {
    return new Diagnostic(Message.KERNEL_NO_BODY, kernel, modifier);
  }

  /** {@code kiln.kernel.throws}. */
  public static Diagnostic kernelThrows(Object kernel, Object exception) {
    return new Diagnostic(Message.KERNEL_THROWS, kernel, exception);
  }

  /** {@code kiln.kernel.parameters}. */
  public static Diagnostic kernelParameters(Object kernel, int slots) {
    return new Diagnostic(Message.KERNEL_PARAMETERS, kernel, slots);
  }

  /** {@code kiln.kernel.launcherName}. */
  public static Diagnostic launcherName(String launcher, String takenBy) {
    return new Diagnostic(Message.LAUNCHER_NAME, launcher, takenBy);
  }

  /** {@code kiln.compiler}: the compiler running the processor is not javac. */
  public static Diagnostic notJavac(String kernel, String compiler) {
    return new Diagnostic(Message.NOT_JAVAC, kernel, compiler);
  }

  /** {@code kiln.kernel.moduleSize}. */
  public static Diagnostic moduleSize(String program, int bytes, int limit) {
    return new Diagnostic(Message.MODULE_SIZE, program, bytes, limit);
  }

  /** {@code kiln.kernel.outOfMemory}. */
  public static Diagnostic outOfMemory(String program, long heapMegabytes) {
    return new Diagnostic(Message.OUT_OF_MEMORY, program, heapMegabytes);
  }

  /** {@code kiln.kernel.duplicate}. */
  public static Diagnostic kernelDuplicate(Object owner, String kernel) {
    return new Diagnostic(Message.KERNEL_DUPLICATE, owner, kernel);
  }

  /** {@code kiln.kernel.enclosing}. */
  public static Diagnostic kernelEnclosing(Object kernel, String enclosing) {
    return new Diagnostic(Message.KERNEL_ENCLOSING, kernel, enclosing);
  }

  /** {@code kiln.kernel.workgroup}. */
  public static Diagnostic workgroupShape(String sizes) {
    return new Diagnostic(Message.WORKGROUP_SHAPE, sizes);
  }

  /** {@code kiln.kernel.parameterType}. */
  public static Diagnostic parameterType(Object parameter, Object type) {
    return new Diagnostic(Message.PARAMETER_TYPE, parameter, type);
  }

  /** {@code kiln.kernel.pushConstants}. */
  public static Diagnostic pushConstants(Object kernel, int scalars, int bytes) {
    return new Diagnostic(Message.PUSH_CONSTANTS, kernel, scalars, bytes);
  }

  /** {@code kiln.buffer.access}. */
  public static Diagnostic bufferAccess(
      String buffer, Object declared, String verb, Object needed, String use) {
    return new Diagnostic(Message.BUFFER_ACCESS, buffer, declared, verb, needed, use);
  }

  /** {@code kiln.unsupported.type}. */
  public static Diagnostic unsupportedType(Object type, String fix) {
    return new Diagnostic(Message.UNSUPPORTED_TYPE, type, fix);
  }

  /** {@code kiln.unsupported.localArray}. */
  public static Diagnostic unsupportedLocalArray(Object array) {
    return new Diagnostic(Message.UNSUPPORTED_LOCAL_ARRAY, array);
  }

  /** {@code kiln.unsupported.alias}: what the variable does, and the fix. */
  public static Diagnostic unsupportedAlias(Object variable, String what, String fix) {
    return new Diagnostic(Message.UNSUPPORTED_ALIAS, variable, what, fix);
  }

  /** {@code kiln.unsupported.arrayUse}. */
  public static Diagnostic unsupportedArrayUse(Object buffer) {
    return new Diagnostic(Message.UNSUPPORTED_ARRAY_USE, buffer);
  }

  /** {@code kiln.unsupported.field}. */
  public static Diagnostic unsupportedField(Object field) {
    return new Diagnostic(Message.UNSUPPORTED_FIELD, field);
  }

  /** {@code kiln.unsupported.call}. */
  public static Diagnostic unsupportedCall(String method) {
    return new Diagnostic(Message.UNSUPPORTED_CALL, method);
  }

  /** {@code kiln.unsupported.print}. */
  public static Diagnostic unsupportedPrint(String method) {
    return new Diagnostic(Message.UNSUPPORTED_PRINT, method);
  }

  /** {@code kiln.unsupported.mathDouble}. */
  public static Diagnostic mathDouble(Object method) {
    return new Diagnostic(Message.MATH_DOUBLE, method);
  }

  /** {@code kiln.helper.recursion}. */
  public static Diagnostic helperRecursion(Object helper) {
    return new Diagnostic(Message.HELPER_RECURSION, helper);
  }

  /** {@code kiln.helper.compiled}. */
  public static Diagnostic helperCompiled(String method) {
    return new Diagnostic(Message.HELPER_COMPILED, method);
  }

  /** {@code kiln.helper.array}. */
  public static Diagnostic helperArray(Object parameter) {
    return new Diagnostic(Message.HELPER_ARRAY, parameter);
  }

  /** {@code kiln.helper.setting}. */
  public static Diagnostic helperSetting(String type, Object parameter) {
    return new Diagnostic(Message.HELPER_SETTING, type, parameter);
  }

  /** {@code kiln.subgroup.lane}. */
  public static Diagnostic subgroupLane() {
    return new Diagnostic(Message.SUBGROUP_LANE);
  }

  /** {@code kiln.subgroup.cluster}. */
  public static Diagnostic subgroupCluster(String intrinsic) {
    return new Diagnostic(Message.SUBGROUP_CLUSTER, intrinsic);
  }

  /** {@code kiln.launch.hiddenAxis}. */
  public static Diagnostic launchHiddenAxis(String kernel, String intrinsic, int axis) {
    return new Diagnostic(Message.LAUNCH_HIDDEN_AXIS, kernel, intrinsic, axis);
  }

  /** {@code kiln.intrinsic.axis}. */
  public static Diagnostic intrinsicAxis(String intrinsic) {
    return new Diagnostic(Message.INTRINSIC_AXIS, intrinsic);
  }

  /** {@code kiln.unsupported.expression}. */
  public static Diagnostic unsupportedExpression(String what) {
    return new Diagnostic(Message.UNSUPPORTED_EXPRESSION, what);
  }

  /** {@code kiln.unsupported.statement}. */
  public static Diagnostic unsupportedStatement(String what) {
    return new Diagnostic(Message.UNSUPPORTED_STATEMENT, what);
  }

  /** {@code kiln.shared.declaration}. */
  public static Diagnostic sharedDeclaration(String intrinsic) {
    return new Diagnostic(Message.SHARED_DECLARATION, intrinsic);
  }

  public static Diagnostic sharedLengthBesideMatrices() {
    return new Diagnostic(Message.SHARED_LENGTH);
  }

  /** {@code kiln.private.length}. */
  public static Diagnostic privateLength() {
    return new Diagnostic(Message.PRIVATE_LENGTH);
  }

  /** {@code kiln.private.size}. */
  public static Diagnostic privateSize(long bytes, int limit) {
    return new Diagnostic(Message.PRIVATE_SIZE, bytes, limit);
  }

  /** {@code kiln.index.constant}. */
  public static Diagnostic constantIndex(int index, String kind, String array, String why) {
    return new Diagnostic(Message.INDEX_CONSTANT, index, kind, array, why);
  }

  /** {@code kiln.atomic.target}. */
  public static Diagnostic atomicTarget(String intrinsic) {
    return new Diagnostic(Message.ATOMIC_TARGET, intrinsic);
  }

  /** {@code kiln.copy.length}: {@code length} as written. */
  public static Diagnostic copyLength(int most, int bytes, String element, Object length) {
    return new Diagnostic(Message.COPY_LENGTH, most, bytes, element, length);
  }

  /** {@code kiln.copy.types}. */
  public static Diagnostic copyTypes(
      String source, String sourceElement, String target, String targetElement) {
    return new Diagnostic(Message.COPY_TYPES, source, sourceElement, target, targetElement);
  }

  /** {@code kiln.unsupported.label}. */
  public static Diagnostic unsupportedLabel(String what) {
    return new Diagnostic(Message.UNSUPPORTED_LABEL, what);
  }

  /** {@code kiln.unsupported.returnValue}. */
  public static Diagnostic unsupportedReturnValue() {
    return new Diagnostic(Message.UNSUPPORTED_RETURN_VALUE);
  }

  /** {@code kiln.race.update}. */
  public static Diagnostic racyUpdate(String kind, String array) {
    return new Diagnostic(Message.RACY_UPDATE, kind, array);
  }

  /** {@code kiln.race.write}. */
  public static Diagnostic racyWrite(String kind, String array) {
    return new Diagnostic(Message.RACY_WRITE, kind, array);
  }

  /** {@code kiln.race.barrier}. */
  public static Diagnostic raceBarrier(String kind, String array, String otherKind, int otherLine) {
    return new Diagnostic(Message.RACE_BARRIER, kind, array, otherKind, otherLine);
  }

  /** {@code kiln.subgroup.divergent}. */
  public static Diagnostic subgroupDivergent(String intrinsic) {
    return new Diagnostic(Message.SUBGROUP_DIVERGENT, intrinsic);
  }

  /** {@code kiln.matrix.divergent}. */
  public static Diagnostic matrixDivergent() {
    return new Diagnostic(Message.MATRIX_DIVERGENT);
  }

  /** {@code kiln.matrix.operand}. */
  public static Diagnostic matrixOperand() {
    return new Diagnostic(Message.MATRIX_OPERAND);
  }

  /** {@code kiln.matrix.memory}. */
  public static Diagnostic matrixMemory(String intrinsic) {
    return new Diagnostic(Message.MATRIX_MEMORY, intrinsic);
  }

  /** {@code kiln.matrix.constant}. */
  public static Diagnostic matrixConstant(String what, String intrinsic) {
    return new Diagnostic(Message.MATRIX_CONSTANT, what, intrinsic);
  }

  /** {@code kiln.matrix.element}. */
  public static Diagnostic matrixElement(String conflict) {
    return new Diagnostic(Message.MATRIX_ELEMENT, conflict);
  }

  /** {@code kiln.matrix.use}. */
  public static Diagnostic matrixUse(String what) {
    return new Diagnostic(Message.MATRIX_USE, what);
  }

  /** {@code kiln.barrier.divergent}. */
  public static Diagnostic barrierDivergent() {
    return new Diagnostic(Message.BARRIER_DIVERGENT);
  }

  /** {@code kiln.group.name}. */
  public static Diagnostic groupName(String group, String why) {
    return new Diagnostic(Message.GROUP_NAME, group, why);
  }

  /** {@code kiln.group.pushConstants}. */
  public static Diagnostic groupPushConstants(String group, int arms, int scalars, int bytes) {
    return new Diagnostic(Message.GROUP_PUSH_CONSTANTS, group, arms, scalars, bytes);
  }

  /** {@code kiln.group.notKernel}. */
  public static Diagnostic groupWithoutKernel(Object method) {
    return new Diagnostic(Message.GROUP_WITHOUT_KERNEL, method);
  }

  /** {@code kiln.fusion.selfAliasing}. */
  public static Diagnostic fusionSelfAliasing(String kernel, int arm, int againArm, String group) {
    return new Diagnostic(Message.FUSION_SELF_ALIASING, kernel, arm, againArm, group);
  }

  /** {@code kiln.fusion.aliasing}. */
  public static Diagnostic fusionAliasing(
      String buffer,
      String group,
      int arm,
      String kernel,
      int line,
      String verb,
      String access,
      int laterArm,
      String laterKernel,
      int laterLine,
      String laterVerb,
      String laterAccess,
      String why) {
    return new Diagnostic(
        Message.FUSION_ALIASING,
        buffer,
        group,
        arm,
        kernel,
        line,
        verb,
        access,
        laterArm,
        laterKernel,
        laterLine,
        laterVerb,
        laterAccess,
        why);
  }

  /** {@code kiln.fusion.overDispatch}. */
  public static Diagnostic fusionOverDispatch(
      String group,
      String workgroup,
      long invocations,
      int limit,
      long largestInvocations,
      int largestArm,
      String largestKernel,
      int arm,
      String kernel) {
    return new Diagnostic(
        Message.FUSION_OVER_DISPATCH,
        group,
        workgroup,
        invocations,
        limit,
        largestInvocations,
        largestArm,
        largestKernel,
        arm,
        kernel);
  }

  /** {@code kiln.fusion.workgroupGeometry}. */
  public static Diagnostic fusionWorkgroupGeometry(
      String group, int arm, String kernel, String workgroup, String own, String why) {
    return new Diagnostic(
        Message.FUSION_WORKGROUP_GEOMETRY, group, arm, kernel, workgroup, own, why);
  }

  /** {@code kiln.fusion.typeConflict}. */
  public static Diagnostic fusionTypeConflict(
      String name,
      Object type,
      int arm,
      String kernel,
      Object otherType,
      int otherArm,
      String otherKernel,
      String group) {
    return new Diagnostic(
        Message.FUSION_TYPE_CONFLICT,
        name,
        type,
        arm,
        kernel,
        otherType,
        otherArm,
        otherKernel,
        group);
  }

  /** {@code kiln.fusion.matrices}. */
  public static Diagnostic fusionMatrices(String group, int arm, String kernel) {
    return new Diagnostic(Message.FUSION_MATRICES, group, arm, kernel);
  }

  /** {@code kiln.internal}. */
  public static Diagnostic internal(Object where, Object cause) {
    return new Diagnostic(Message.INTERNAL, where, cause);
  }
}
