package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.LaunchAbi;

/**
 * Lavapipe's loop limit, in the module: each subgroup counts its entries of loop headers in
 * workgroup memory, as lavapipe counts a SIMD group's entries of all its loops together, and a
 * subgroup past {@link LaunchAbi#LOOP_TURN_LIMIT} entries records a fault. On a device that cuts
 * loops the runtime sets the specialization constant {@link LaunchAbi#COUNT_LOOPS_SPEC_ID};
 * elsewhere it is false and the driver folds the counting away.
 */
final class LoopLimit {
  private final FunctionBuilder fn;
  private final SpirvModule module;
  private final Faults faults;
  private final QuadArrays.Operands memoryOperands;

  /** The specialization constant that turns counting on. */
  private final int countLoops;

  /** The subgroups' counts (workgroup memory), and the invocation's subgroup. */
  private final int loopTurns;

  private final int loopGroup;

  /**
   * Declares the counts and zeroes the invocation's subgroup's, at the top of a kernel with loops;
   * {@code subgroupId} is the invocation's subgroup, {@code invocations} the workgroup's.
   */
  LoopLimit(
      FunctionBuilder fn,
      Faults faults,
      QuadArrays.Operands memoryOperands,
      int subgroupId,
      int invocations) {
    this.fn = fn;
    this.module = fn.module();
    this.faults = faults;
    this.memoryOperands = memoryOperands;
    int uint = module.typeUint();
    countLoops = module.id();
    module.globals.op(SpvOpSpecConstantFalse, module.typeBool(), countLoops);
    module.decorate(countLoops, SpvDecorationSpecId, LaunchAbi.COUNT_LOOPS_SPEC_ID);
    module.name(countLoops, "countLoops");
    int counts =
        (invocations + LaunchAbi.LOOP_COUNT_MIN_SUBGROUP - 1) / LaunchAbi.LOOP_COUNT_MIN_SUBGROUP;
    loopTurns =
        fn.globalVariable(
            SpvStorageClassWorkgroup,
            module.type(SpvOpTypeArray, uint, module.constantUint(counts)));
    module.name(loopTurns, "loopTurns");
    loopGroup = subgroupId;
    fn.when(
        countLoops,
        () ->
            fn.store(
                loopTurnsOfGroup(),
                module.constantUint(0),
                memoryOperands.of(SpvStorageClassWorkgroup, true)));
  }

  private int loopTurnsOfGroup() {
    return fn.op(
        SpvOpAccessChain,
        module.typePointer(SpvStorageClassWorkgroup, module.typeUint()),
        loopTurns,
        loopGroup);
  }

  /**
   * Counts one entry of a loop's header, {@code line} the loop's, once per subgroup (by the lane it
   * elects); a subgroup past the limit records a fault in each of its active invocations. Only
   * lavapipe runs it, whose lanes of a subgroup are one SIMD thread: the elected lane's store is
   * seen by the loads that follow it with no memory barrier (with one, lavapipe left every store of
   * the kernel undone).
   */
  void countTurn(int line) {
    int uint = module.typeUint();
    fn.when(
        countLoops,
        () -> {
          int elected =
              fn.op(
                  SpvOpGroupNonUniformElect,
                  module.typeBool(),
                  module.constantUint(SpvScopeSubgroup));
          int[] visible = memoryOperands.of(SpvStorageClassWorkgroup, false);
          fn.when(
              elected,
              () ->
                  fn.store(
                      loopTurnsOfGroup(),
                      fn.op(
                          SpvOpIAdd,
                          uint,
                          fn.load(uint, loopTurnsOfGroup(), visible),
                          module.constantUint(1)),
                      memoryOperands.of(SpvStorageClassWorkgroup, true)));
          int turns = fn.load(uint, loopTurnsOfGroup(), visible);
          int past =
              fn.op(
                  SpvOpUGreaterThan,
                  module.typeBool(),
                  turns,
                  module.constantUint(LaunchAbi.LOOP_TURN_LIMIT));
          faults.recordIf(
              past, Faults.LOOP_LIMIT, 0, fn.op(SpvOpBitcast, module.typeInt(), turns), line);
        });
  }
}
