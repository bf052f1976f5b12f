package dev.kiln.processor;

import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.SharedLength;
import dev.kiln.annotations.Access;
import dev.kiln.processor.analysis.Analysis;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import dev.kiln.processor.model.KernelSignature;
import dev.kiln.processor.spirv.SpirvWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link KernelDescription} of a written program: what its analyses and its writer found, with
 * each parameter named by its index in the launcher's spec. While the processor works, a buffer is
 * its binding and a scalar its name; here both become the parameter's index.
 */
final class Descriptions {
  private Descriptions() {}

  /**
   * @param written the program as written, with its analyses
   * @param module what the writer made of it
   * @param params the kernel's or group's parameters, in the order of its spec
   */
  static KernelDescription of(
      Analysis written, SpirvWriter.Written module, List<KernelSignature.Param> params) {
    Program program = written.program();
    Map<String, Integer> byName = new HashMap<>();
    List<Integer> byBinding = new ArrayList<>();
    for (int index = 0; index < params.size(); index++) {
      byName.put(params.get(index).name(), index);
      if (params.get(index).isBuffer()) {
        byBinding.add(index);
      }
    }
    Map<String, Access> accessOf = new HashMap<>();
    for (BufferDecl buffer : program.buffers()) {
      if (!params.get(byBinding.get(buffer.binding())).name().equals(buffer.name())) {
        throw new IllegalStateException(
            "buffer "
                + buffer.name()
                + " has binding "
                + buffer.binding()
                + ", the "
                + "binding of parameter "
                + params.get(byBinding.get(buffer.binding())).name());
      }
      accessOf.put(buffer.name(), buffer.access());
    }
    List<Access> accesses =
        params.stream()
            .map(
                param ->
                    !param.isBuffer()
                        ? Access.READ
                        : accessOf.getOrDefault(param.name(), Access.READ))
            .toList(); // a buffer the program does not name: untouched
    java.util.function.ToIntFunction<String> index =
        name -> {
          Integer found = byName.get(name);
          if (found == null) {
            throw new IllegalStateException(
                "a launch condition names '" + name + "', which is no parameter");
          }
          return found;
        };
    return new KernelDescription(
        module.features(),
        program.elementsPerInvocation(),
        Walk.anyStatement(program.body(), Stmt.Barrier.class::isInstance),
        module.sharedBytes(),
        module.sharedLengths().stream()
            .map(
                length ->
                    new SharedLength(
                        index.applyAsInt(length.param()),
                        length.specId(),
                        length.bytesPerElement()))
            .toList(),
        accesses,
        program.launchBounds().stream().map(bound -> bound.numbered(index)).toList(),
        written.bounds().launchProofs().stream().map(proof -> proof.numbered(index)).toList(),
        program.aliasConflicts().stream()
            .map(conflict -> conflict.numbered(byBinding::get))
            .toList(),
        program.split().numbered(byBinding::get, index));
  }
}
