package dev.kiln.processor.pass;

import dev.kiln.annotations.Access;
import dev.kiln.processor.analysis.Analysis;
import dev.kiln.processor.analysis.Facts;
import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Rewriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Gives each buffer without a declared access the access its body shows: read only, written only,
 * or both (an atomic update is both), and makes every reference use the new declaration.
 */
public final class AccessInference {
  private AccessInference() {}

  /**
   * The program with every undeclared buffer's access inferred.
   *
   * @param analysis the checked program, with its analyses
   * @param declared the names of the buffers whose access {@code @Buffer} declares
   * @return the program with the inferred accesses
   */
  public static Program apply(Analysis analysis, Set<String> declared) {
    Program program = analysis.program();
    Facts facts = analysis.facts();
    Map<ArrayDecl, ArrayDecl> inferred = new HashMap<>();
    List<BufferDecl> buffers =
        program.buffers().stream()
            .map(
                buffer -> {
                  BufferDecl result =
                      declared.contains(buffer.name())
                          ? buffer
                          : buffer.withAccess(infer(facts, buffer));
                  inferred.put(buffer, result);
                  return result;
                })
            .toList();
    Rewriter rewriter =
        new Rewriter() {
          @Override
          protected ArrayDecl array(ArrayDecl array) {
            return inferred.getOrDefault(array, array);
          }
        };
    return new Program(
        program.name(),
        program.workgroup(),
        program.arms(),
        program.boundsChecks(),
        buffers,
        program.shared(),
        program.privates(),
        program.scalars(),
        program.locals(),
        rewriter.statements(program.body()),
        program.elementsPerInvocation(),
        program.launchBounds(),
        program.split(),
        program.aliasConflicts());
  }

  private static Access infer(Facts facts, BufferDecl buffer) {
    List<Facts.Access> uses = facts.usesOf(buffer.name());
    boolean reads = uses.stream().anyMatch(use -> use.kind() != Facts.Kind.WRITE);
    boolean writes = uses.stream().anyMatch(use -> use.kind().writes());
    if (!writes) {
      return Access.READ;
    }
    return reads ? Access.READ_WRITE : Access.WRITE;
  }
}
