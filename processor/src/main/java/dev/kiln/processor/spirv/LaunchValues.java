package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.PushConstantBlock;
import dev.kiln.processor.ir.ScalarParam;
import dev.kiln.processor.ir.Workgroup;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a program reads of its launch: the push-constant block of {@link PushConstantBlock}
 * (dispatch geometry, arm grids, scalars), the invocation-id built-ins (x counted from the launch's
 * first workgroup, since a large launch is split into dispatches), and the launch gate built from
 * them.
 */
final class LaunchValues {
  private final FunctionBuilder fn;
  private final SpirvModule module;
  private final Program program;
  private final Map<String, Integer> scalarMembers = new HashMap<>();
  private final Map<Builtin, Integer> builtinVariables = new EnumMap<>(Builtin.class);
  private final Map<Integer, Integer> scalarBuiltins = new TreeMap<>();
  private int pushConstants;

  LaunchValues(FunctionBuilder fn, Program program) {
    this.fn = fn;
    this.module = fn.module();
    this.program = program;
  }

  /** Declares the push-constant block. */
  void declare() {
    List<ScalarParam> scalars = program.scalars();
    int firstScalar = PushConstantBlock.firstScalarMember(program.arms());
    int[] offsets =
        PushConstantBlock.scalarOffsets(
            program.arms(), scalars.stream().map(ScalarParam::type).toList());
    int[] members = new int[firstScalar + scalars.size()];
    Arrays.fill(members, 0, firstScalar, module.typeUint());
    for (int i = 0; i < scalars.size(); i++) {
      members[firstScalar + i] = fn.typeOf(scalars.get(i).type());
      scalarMembers.put(scalars.get(i).name(), firstScalar + i);
    }
    int struct = module.id();
    module.globals.op(SpvOpTypeStruct, SpirvModule.prepend(struct, members));
    module.decorate(struct, SpvDecorationBlock);
    module.name(struct, "PushConstants");
    String[] launch = {"count", "firstGroup", "countY", "countZ", "faultRegion"};
    for (int member = 0; member < firstScalar; member++) {
      int arm = (member - PushConstantBlock.LAUNCH_MEMBERS) / 3;
      module.memberName(
          struct,
          member,
          member < PushConstantBlock.LAUNCH_MEMBERS
              ? launch[member]
              : "arm"
                  + arm
                  + "Count"
                  + "XYZ".charAt((member - PushConstantBlock.LAUNCH_MEMBERS) % 3));
      module.decorateMember(struct, member, SpvDecorationOffset, 4 * member);
    }
    for (int i = 0; i < scalars.size(); i++) {
      module.memberName(struct, firstScalar + i, scalars.get(i).name());
      module.decorateMember(struct, firstScalar + i, SpvDecorationOffset, offsets[i]);
    }
    pushConstants = fn.globalVariable(SpvStorageClassPushConstant, struct);
    module.name(pushConstants, "push");
  }

  /** The input variables the entry point must list. */
  int[] interfaceVariables() {
    return Stream.concat(builtinVariables.values().stream(), scalarBuiltins.values().stream())
        .mapToInt(Integer::intValue)
        .toArray();
  }

  /** A scalar parameter's value. */
  int scalar(ScalarParam param) {
    int type = fn.typeOf(param.type());
    return fn.load(
        type,
        fn.accessChain(
            SpvStorageClassPushConstant,
            type,
            pushConstants,
            module.constantInt(scalarMembers.get(param.name()))));
  }

  /**
   * Whether the invocation (or, for {@code wholeWorkgroups}, its workgroup) lies inside arm {@code
   * arm}'s grid, compared unsigned along each axis.
   */
  int inLaunch(Expr.InLaunch gate) {
    int bool = module.typeBool();
    int inside = 0;
    for (int axis = 0; axis < 3; axis++) {
      int test =
          gate.wholeWorkgroups()
              ? fn.op(
                  SpvOpULessThan,
                  bool,
                  builtin(Builtin.WORKGROUP_ID, axis),
                  armWorkgroups(gate.arm(), axis, program.workgroup().size(axis)))
              : fn.op(
                  SpvOpULessThan,
                  bool,
                  builtin(Builtin.GLOBAL_ID, axis),
                  armCount(gate.arm(), axis));
      inside = axis == 0 ? test : fn.op(SpvOpLogicalAnd, bool, inside, test);
    }
    return inside;
  }

  /**
   * Workgroups of {@code size} invocations that cover arm {@code arm}'s grid along {@code axis}, as
   * a uint.
   */
  int armWorkgroups(int arm, int axis, int size) {
    int uint = module.typeUint();
    int roundedUp = fn.op(SpvOpIAdd, uint, armCount(arm, axis), module.constantUint(size - 1));
    return fn.op(SpvOpUDiv, uint, roundedUp, module.constantUint(size));
  }

  /** Arm {@code arm}'s grid size along {@code axis}, as a uint. */
  int armCount(int arm, int axis) {
    return launchConstant(PushConstantBlock.countMember(program.arms(), arm, axis));
  }

  /**
   * A built-in's component as a uint. Along x a launch may be split into dispatches (see {@code
   * KernelSpec}), so there the ids count from the launch's first workgroup and the number of
   * workgroups is the launch's.
   */
  int builtin(Builtin builtin, int axis) {
    int uint = module.typeUint();
    if (axis == 0 && builtin == Builtin.NUM_WORKGROUPS) {
      return armWorkgroups(0, 0, program.workgroup().x());
    }
    int vector = fn.load(module.type(SpvOpTypeVector, uint, 3), builtinVariable(builtin));
    int component = fn.op(SpvOpCompositeExtract, uint, vector, axis);
    return switch (axis == 0 ? builtin : Builtin.LOCAL_ID) {
      case GLOBAL_ID ->
          fn.op(
              SpvOpIAdd,
              uint,
              component,
              fn.op(
                  SpvOpIMul,
                  uint,
                  launchConstant(PushConstantBlock.FIRST_GROUP_MEMBER),
                  module.constantUint(program.workgroup().x())));
      case WORKGROUP_ID ->
          fn.op(SpvOpIAdd, uint, component, launchConstant(PushConstantBlock.FIRST_GROUP_MEMBER));
      case LOCAL_ID, NUM_WORKGROUPS -> component;
    };
  }

  /**
   * The invocation's place in Java's order of the launch's invocations, as a uint: its workgroup's
   * (x fastest, from the launch's first) times the workgroup's invocations, plus its own place in
   * the workgroup (x fastest); it wraps past 2^32 invocations.
   */
  int invocationPlace() {
    int uint = module.typeUint();
    Workgroup size = program.workgroup();
    int group = builtin(Builtin.WORKGROUP_ID, 2);
    group =
        fn.op(
            SpvOpIAdd,
            uint,
            builtin(Builtin.WORKGROUP_ID, 1),
            fn.op(SpvOpIMul, uint, builtin(Builtin.NUM_WORKGROUPS, 1), group));
    group =
        fn.op(
            SpvOpIAdd,
            uint,
            builtin(Builtin.WORKGROUP_ID, 0),
            fn.op(SpvOpIMul, uint, builtin(Builtin.NUM_WORKGROUPS, 0), group));
    int local = builtin(Builtin.LOCAL_ID, 2);
    local =
        fn.op(
            SpvOpIAdd,
            uint,
            builtin(Builtin.LOCAL_ID, 1),
            fn.op(SpvOpIMul, uint, module.constantUint(size.y()), local));
    local =
        fn.op(
            SpvOpIAdd,
            uint,
            builtin(Builtin.LOCAL_ID, 0),
            fn.op(SpvOpIMul, uint, module.constantUint(size.x()), local));
    return fn.op(
        SpvOpIAdd,
        uint,
        fn.op(SpvOpIMul, uint, group, module.constantUint((int) size.invocations())),
        local);
  }

  /** The launch's first fault region ({@link dev.kiln.abi.LaunchAbi#FAULT_REGION}), a uint. */
  int faultRegion() {
    return launchConstant(PushConstantBlock.FAULT_REGION_MEMBER);
  }

  /** A scalar uint built-in of the subgroup family, as an int. */
  int subgroupBuiltin(int builtIn) {
    module.require(DeviceFeature.SUBGROUPS);
    int variable =
        scalarBuiltins.computeIfAbsent(
            builtIn,
            b -> {
              int declared = fn.globalVariable(SpvStorageClassInput, module.typeUint());
              module.decorate(declared, SpvDecorationBuiltIn, b);
              return declared;
            });
    return fn.op(SpvOpBitcast, module.typeInt(), fn.load(module.typeUint(), variable));
  }

  private int builtinVariable(Builtin builtin) {
    return builtinVariables.computeIfAbsent(
        builtin,
        b -> {
          int vector = module.type(SpvOpTypeVector, module.typeUint(), 3);
          int variable = fn.globalVariable(SpvStorageClassInput, vector);
          module.decorate(
              variable,
              SpvDecorationBuiltIn,
              switch (b) {
                case GLOBAL_ID -> SpvBuiltInGlobalInvocationId;
                case LOCAL_ID -> SpvBuiltInLocalInvocationId;
                case WORKGROUP_ID -> SpvBuiltInWorkgroupId;
                case NUM_WORKGROUPS -> SpvBuiltInNumWorkgroups;
              });
          module.name(variable, b.intrinsic());
          return variable;
        });
  }

  /** A member of the launch values at the start of the push-constant block. */
  private int launchConstant(int member) {
    return fn.load(
        module.typeUint(),
        fn.accessChain(
            SpvStorageClassPushConstant,
            module.typeUint(),
            pushConstants,
            module.constantInt(member)));
  }
}
