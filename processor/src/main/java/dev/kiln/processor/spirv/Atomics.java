package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Stmt;

/** The instruction of each atomic update, on buffers and workgroup arrays alike. */
final class Atomics {
  private Atomics() {}

  /**
   * The update of an atomic at {@code pointer}, its previous value: device or workgroup scope
   * ({@code workgroup}), relaxed, the device feature its element and memory need required.
   */
  static int update(
      FunctionBuilder fn,
      Stmt.Atomic atomic,
      boolean workgroup,
      int pointer,
      int value,
      int expected) {
    SpirvModule module = fn.module();
    int scope = module.constantUint(workgroup ? SpvScopeWorkgroup : SpvScopeDevice);
    int relaxed = module.constantUint(SpvMemorySemanticsMaskNone);
    PrimType element = atomic.array().element();
    int type = fn.typeOf(element);
    if (element == PrimType.LONG) {
      module.require(
          workgroup
              ? DeviceFeature.LONG_ATOMICS_ON_WORKGROUP
              : DeviceFeature.LONG_ATOMICS_ON_BUFFERS);
    }
    return switch (atomic.op()) {
      case ADD ->
          element == PrimType.FLOAT
              ? floatAdd(fn, pointer, scope, relaxed, value, workgroup)
              : fn.op(SpvOpAtomicIAdd, type, pointer, scope, relaxed, value);
      case MIN -> fn.op(SpvOpAtomicSMin, type, pointer, scope, relaxed, value);
      case MAX -> fn.op(SpvOpAtomicSMax, type, pointer, scope, relaxed, value);
      case AND -> fn.op(SpvOpAtomicAnd, type, pointer, scope, relaxed, value);
      case OR -> fn.op(SpvOpAtomicOr, type, pointer, scope, relaxed, value);
      case XOR -> fn.op(SpvOpAtomicXor, type, pointer, scope, relaxed, value);
      case EXCHANGE -> fn.op(SpvOpAtomicExchange, type, pointer, scope, relaxed, value);
      case COMPARE_EXCHANGE ->
          fn.op(
              SpvOpAtomicCompareExchange, type, pointer, scope, relaxed, relaxed, value, expected);
    };
  }

  /** {@code OpAtomicFAddEXT} (SPV_EXT_shader_atomic_float_add): the device's float atomic add. */
  private static int floatAdd(
      FunctionBuilder fn, int pointer, int scope, int semantics, int value, boolean workgroup) {
    SpirvModule module = fn.module();
    module.require(
        workgroup ? DeviceFeature.FLOAT_ADDS_ON_WORKGROUP : DeviceFeature.FLOAT_ADDS_ON_BUFFERS);
    return fn.op(SpvOpAtomicFAddEXT, module.typeFloat(), pointer, scope, semantics, value);
  }
}
