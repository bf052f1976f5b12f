package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.LaunchAbi;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lengths of workgroup arrays that an {@code int} parameter gives: one specialization constant
 * per parameter ({@link LaunchAbi#SHARED_LENGTH_SPEC_IDS_FROM} on, in the order of first use),
 * which the runtime sets to the launch's value. An array's type takes the length, or 1 where it is
 * 0 (a SPIR-V array has at least one element), while its bounds checks compare with the length.
 */
public final class ParameterLengths {
  /**
   * What the module tells its description about one parameter.
   *
   * @param param the parameter's name
   * @param specId its constant's id
   * @param bytesPerElement the workgroup memory each unit of its value takes, over its arrays
   */
  public record Length(String param, int specId, long bytesPerElement) {}

  private record Declared(int length, int size, int specId) {}

  private final SpirvModule module;
  private final Map<String, Declared> declared = new LinkedHashMap<>();
  private final Map<String, Long> bytesPerElement = new LinkedHashMap<>();

  ParameterLengths(SpirvModule module) {
    this.module = module;
  }

  /** The uint specialization constant that holds {@code param}'s value, declared on first use. */
  int length(String param) {
    return declared(param).length();
  }

  /**
   * The uint length of the type of an array {@code param} sizes, whose elements take {@code
   * elementBytes} of workgroup memory each (counted towards the launch's).
   */
  int size(String param, long elementBytes) {
    bytesPerElement.merge(param, elementBytes, Long::sum);
    return declared(param).size();
  }

  /** The constant id of {@code param}, for fault records. */
  int specId(String param) {
    return declared(param).specId();
  }

  List<Length> lengths() {
    List<Length> lengths = new ArrayList<>();
    declared.forEach(
        (param, d) -> lengths.add(new Length(param, d.specId(), bytesPerElement.get(param))));
    return lengths;
  }

  private Declared declared(String param) {
    return declared.computeIfAbsent(
        param,
        name -> {
          int specId = LaunchAbi.SHARED_LENGTH_SPEC_IDS_FROM + declared.size();
          int uint = module.typeUint();
          int length = module.id();
          module.globals.op(SpvOpSpecConstant, uint, length, 1);
          module.decorate(length, SpvDecorationSpecId, specId);
          module.name(length, "shared$" + name);
          int zero = module.id();
          module.globals.op(
              SpvOpSpecConstantOp,
              module.typeBool(),
              zero,
              SpvOpIEqual,
              length,
              module.constantUint(0));
          int size = module.id();
          module.globals.op(
              SpvOpSpecConstantOp, uint, size, SpvOpSelect, zero, module.constantUint(1), length);
          module.parameterSizes.add(size);
          return new Declared(length, size, specId);
        });
  }
}
