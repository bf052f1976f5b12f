package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.SharedArray;

/** The variables of workgroup and private arrays: their types, plain or as quads, and names. */
final class FixedArrays {
  private FixedArrays() {}

  /** Workgroup array {@code shared}, declared; {@code held}: as quads ({@link QuadArrays}). */
  static ArrayVariable shared(
      FunctionBuilder fn, QuadArrays quads, SharedArray shared, boolean held) {
    SpirvModule module = fn.module();
    int type;
    int storage;
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
      type = module.type(SpvOpTypeArray, storage, module.constantUint(shared.size()));
    }
    int variable = fn.globalVariable(SpvStorageClassWorkgroup, type);
    module.name(variable, shared.name());
    return new ArrayVariable(
        variable,
        SpvStorageClassWorkgroup,
        shared.element(),
        shared.size(),
        Faults.LOCAL_ARRAY | shared.size(),
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
        Faults.LOCAL_ARRAY | array.size(),
        held ? quads.quad() : fn.typeOf(array.element()),
        held,
        held);
  }
}
