package dev.kiln.processor.check;

import dev.kiln.annotations.Access;
import dev.kiln.processor.analysis.Facts;
import dev.kiln.processor.ir.Program;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The checks a lowered kernel must pass before any pass runs on it. */
public final class Checks {
  private Checks() {}

  /** Every error of {@code program}; {@code declared}: the {@code @Buffer} accesses, by buffer name. */
  /** What {@code program} may get wrong without being invalid: warnings. */
  public static List<CheckError> warnings(Program program) {
    return RacyUpdates.find(program);
  }

  public static List<CheckError> run(Program program, Facts facts, Map<String, Access> declared) {
    List<CheckError> errors = new ArrayList<>(ArrayDeclarations.check(program));
    errors.addAll(AccessCheck.check(program, facts, declared));
    errors.addAll(BarrierUniformity.check(program));
    return errors;
  }
}
