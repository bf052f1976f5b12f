package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.abi.LaunchAbi;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.SharedArray;

/** The variables of workgroup and private arrays: their types, plain or as quads, and names. */
final class FixedArrays {
  private FixedArrays() {}

  /**
   * Workgroup array {@code shared}, declared; {@code held}: as quads ({@link QuadArrays}). Its
   * length is a constant, or an int parameter's value ({@link ParameterLengths}).
   */
  static ArrayVariable shared(
      FunctionBuilder fn,
      QuadArrays quads,
      ParameterLengths lengths,
      SharedArray shared,
      boolean held) {
    SpirvModule module = fn.module();
    int type;
    int storage;
    String param = shared.length() instanceof Expr.ScalarGet get ? get.param().name() : null;
    if (held) {
      type = quads.arrayType(shared.size(), shared.element());
      storage = quads.quad();
    } else {
      storage = fn.typeOf(shared.element());
      if (shared.packed()) {
        // 16-bit values in workgroup memory, declared as float16, the matrices' component type, so
        // that a tile loads them as they are; elements move through them as bits, by OpBitcast
        module.require(DeviceFeature.PACKED_SHORTS);
        storage = module.type(SpvOpTypeFloat, 16);
      }
      int length =
          param == null
              ? module.constantUint(shared.size())
              : lengths.size(param, module.bytesOf(storage));
      type = module.type(SpvOpTypeArray, storage, length);
    }
    int variable = fn.globalVariable(SpvStorageClassWorkgroup, type);
    module.name(variable, shared.name());
    return new ArrayVariable(
        variable,
        SpvStorageClassWorkgroup,
        shared.element(),
        param == null ? shared.size() : 0,
        param == null ? 0 : lengths.length(param),
        param == null
            ? Faults.LOCAL_ARRAY | shared.size()
            : Faults.LOCAL_ARRAY | LaunchAbi.FAULT_PARAMETER_LENGTH | lengths.specId(param),
        storage,
        held || shared.packed(),
        held);
  }

  /** Private array {@code array}, declared in the function; {@code held}: as quads. */
  static ArrayVariable privateArray(
      FunctionBuilder fn, QuadArrays quads, PrivateArray array, boolean held) {
    SpirvModule module = fn.module();
    int type =
        held
            ? quads.arrayType(array.size(), array.element())
            : module.type(
                SpvOpTypeArray, fn.typeOf(array.element()), module.constantUint(array.size()));
    int variable = fn.temporary(type);
    module.name(variable, array.name());
    return new ArrayVariable(
        variable,
        SpvStorageClassFunction,
        array.element(),
        array.size(),
        0,
        Faults.LOCAL_ARRAY | array.size(),
        held ? quads.quad() : fn.typeOf(array.element()),
        held,
        held);
  }
}
