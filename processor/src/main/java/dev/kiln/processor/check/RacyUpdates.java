package dev.kiln.processor.check;

import dev.kiln.processor.analysis.Analysis;
import dev.kiln.processor.analysis.IndexForm;
import dev.kiln.processor.analysis.IndexForms;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.List;

/**
 * Read-modify-writes of a buffer element that other invocations may update at the same time
 * ({@code bins[v & 15]++}, {@code total[0] += x}): a store whose value reads the element it writes,
 * at an index that is the same for every invocation or that the analysis cannot tell apart per
 * invocation. Invocations that run at once then lose each other's updates, where Java's loop over
 * the invocations would not; {@code Gpu.atomicAdd} is the fix. Warnings, as the programmer may know
 * that the indices differ.
 */
public final class RacyUpdates {
  private RacyUpdates() {}

  /**
   * The racy updates of a checked program.
   *
   * @param analysis the program, with its analyses
   * @return a warning per racy store
   */
  public static List<CheckError> find(Analysis analysis) {
    Program program = analysis.program();
    IndexForms forms = analysis.forms();
    List<CheckError> warnings = new ArrayList<>();
    Walk.statements(program.body(), statement -> {
      if (statement instanceof Stmt.Store store && store.array() instanceof BufferDecl buffer
          && readsSameElement(store, forms) && shared(forms.form(store.index()))) {
        warnings.add(new CheckError(store.site(), Errors.racyUpdate(buffer.name())));
      }
    });
    return warnings;
  }

  private static boolean readsSameElement(Stmt.Store store, IndexForms forms) {
    IndexForm written = forms.form(store.index());
    boolean[] found = {false};
    Walk.expression(store.value(), e -> found[0] |= e instanceof Expr.Load load && load.array() == store.array()
        && (load.index().equals(store.index()) || !(written instanceof IndexForm.Unknown)
            && forms.form(load.index()).equals(written)));
    return found[0];
  }

  /** Whether invocations may share the element: the index is the same for all, or unknown. */
  private static boolean shared(IndexForm index) {
    return index instanceof IndexForm.Unknown || index instanceof IndexForm.Affine affine && affine.isUniform();
  }
}
