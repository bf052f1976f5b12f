package dev.kiln.processor.check;

import dev.kiln.annotations.Access;
import dev.kiln.processor.analysis.Analysis;
import dev.kiln.processor.ir.Program;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The checks a lowered kernel must pass before any pass runs on it. */
public final class Checks {
  private Checks() {}

  /**
   * What a valid program may get wrong: warnings (racy updates and writes, {@link RacyUpdates};
   * missing barriers, {@link MissingBarriers}; subgroup operations only some lanes may reach,
   * {@link BarrierUniformity}), and the launch bounds that the updates proven race-free need.
   *
   * @param analysis the lowered program, with its analyses
   * @return the warnings and bounds
   */
  public static RacyUpdates.Result warnings(Analysis analysis) {
    RacyUpdates.Result updates = RacyUpdates.find(analysis);
    List<CheckError> all = new ArrayList<>(updates.warnings());
    // one race warning per line: a racy update also meets the other accesses of its interval
    java.util.Set<Integer> lines = new java.util.HashSet<>();
    updates.warnings().forEach(warning -> lines.add(warning.site().line()));
    for (CheckError missing : MissingBarriers.find(analysis.program(), analysis.bounds())) {
      if (lines.add(missing.site().line())) {
        all.add(missing);
      }
    }
    all.addAll(BarrierUniformity.subgroupWarnings(analysis.program()));
    return new RacyUpdates.Result(all, updates.launchBounds());
  }

  /**
   * Every error of a lowered program.
   *
   * @param analysis the program, with its analyses
   * @param declared the {@code @Buffer} accesses, by buffer name
   * @return the errors
   */
  public static List<CheckError> run(Analysis analysis, Map<String, Access> declared) {
    Program program = analysis.program();
    List<CheckError> errors = new ArrayList<>(ArrayDeclarations.check(program));
    errors.addAll(ConstantIndices.check(program));
    errors.addAll(AccessCheck.check(program, analysis.facts(), declared));
    errors.addAll(BarrierUniformity.check(program));
    errors.addAll(BarrierUniformity.matrixErrors(program));
    return errors;
  }
}
