package dev.kiln.processor.check;

import dev.kiln.abi.LaunchBound;
import dev.kiln.processor.analysis.Analysis;
import dev.kiln.processor.analysis.IndexBounds;
import dev.kiln.processor.analysis.IndexForm;
import dev.kiln.processor.analysis.IndexForms;
import dev.kiln.processor.analysis.OwnElement;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Rewriter;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import dev.kiln.processor.ir.Workgroup;
import java.util.ArrayList;
import java.util.List;

/**
 * Read-modify-writes of a buffer element that other invocations may update at the same time ({@code
 * bins[v & 15]++}, {@code bins[values[i] & 15] += 1}, {@code total[0] += x}, and {@code int old =
 * bins[b]; bins[b] = old + 1;}): a store whose value reads the element it writes, at an index not
 * proven each invocation's own ({@link OwnElement}: {@code c[i]}, and {@code c[row * cols + col]}
 * under {@code col < cols}, are; so is an index built of the global id's digits, {@code
 * att[b*nh*t*t + h*t*t + tq*t + j]} with {@code h = idx % nh}, {@code tq = (idx / nh) % t}, {@code
 * b = idx / (nh * t)} and {@code j} a counter below {@code t}; a proof that needs the launch to
 * keep a bound adds it to the program's). Invocations that run at once then lose each other's
 * updates, where Java's loop over the invocations would not; {@code Gpu.atomicAdd} is the fix.
 * Warnings, as the programmer may know that the indices differ:
 * {@code @SuppressWarnings("kiln.race.update")} on the kernel or its class says so. A workgroup
 * array is checked the same way among the invocations of a workgroup. An update under {@code if
 * (Gpu.localId(0) == 0)} (one invocation per workgroup: no race on its workgroup arrays, nor on a
 * buffer element at its workgroup id) or {@code if (Gpu.globalId(0) == 0)} (one in all) is not
 * reported.
 */
public final class RacyUpdates {
  private final IndexForms forms;
  private final IndexBounds bounds;

  /** Whether the workgroup is one-dimensional, and so the launch. */
  private final boolean oneDimensional;

  /** The workgroup's size along x. */
  private final int workgroupSize;

  private final List<CheckError> warnings = new ArrayList<>();
  private final List<LaunchBound> launchBounds = new ArrayList<>();

  private RacyUpdates(Analysis analysis) {
    this.forms = analysis.forms();
    this.bounds = analysis.bounds();
    Workgroup workgroup = analysis.program().workgroup();
    this.oneDimensional = workgroup.y() == 1 && workgroup.z() == 1;
    this.workgroupSize = workgroup.x();
  }

  /**
   * What the race check found: a warning per racy update, and the bounds a launch must keep for the
   * updates proven each invocation's own to stay so ({@link OwnElement}).
   *
   * @param warnings the warnings
   * @param launchBounds the bounds
   */
  public record Result(List<CheckError> warnings, List<LaunchBound> launchBounds) {
    public Result {
      warnings = List.copyOf(warnings);
      launchBounds = List.copyOf(launchBounds);
    }
  }

  /**
   * The racy updates of a checked program.
   *
   * @param analysis the program, with its analyses
   * @return a warning per racy store, and the bounds of the others
   */
  public static Result find(Analysis analysis) {
    RacyUpdates check = new RacyUpdates(analysis);
    check.statements(analysis.program().body(), false, false);
    return new Result(check.warnings, check.launchBounds);
  }

  /**
   * Walks {@code body}: {@code oneInWorkgroup}, whether at most one invocation of each workgroup
   * runs it ({@code if (Gpu.localId(0) == 0)} in a one-dimensional workgroup), {@code
   * oneInDispatch}, whether at most one of the whole dispatch does ({@code if (Gpu.globalId(0) ==
   * 0)}).
   */
  private void statements(List<Stmt> body, boolean oneInWorkgroup, boolean oneInDispatch) {
    for (Stmt statement : body) {
      for (Expr own : Walk.ownExpressions(statement)) { // inlined helpers inside expressions
        Walk.expression(
            own,
            e -> {
              if (e instanceof Expr.Effect effect) {
                statements(effect.statements(), oneInWorkgroup, oneInDispatch);
              }
            });
      }
      switch (statement) {
        case Stmt.Store store -> check(store, oneInWorkgroup, oneInDispatch);
        case Stmt.If branch -> {
          Builtin single = singleInvocation(branch.condition());
          statements(
              branch.then(),
              oneInWorkgroup || single != null,
              oneInDispatch || single == Builtin.GLOBAL_ID);
          statements(branch.otherwise(), oneInWorkgroup, oneInDispatch);
        }
        case Stmt.Loop loop -> {
          statements(loop.body(), oneInWorkgroup, oneInDispatch);
          statements(loop.update(), oneInWorkgroup, oneInDispatch);
        }
        case Stmt.Switch choice ->
            choice.cases().forEach(c -> statements(c.body(), oneInWorkgroup, oneInDispatch));
        default -> {}
      }
    }
  }

  private void check(Stmt.Store store, boolean oneInWorkgroup, boolean oneInDispatch) {
    // a buffer is shared by every invocation, a workgroup array by those of a workgroup; an
    // invocation's own array by none
    boolean buffer = store.array() instanceof BufferDecl;
    boolean alone = buffer ? oneInDispatch : oneInWorkgroup;
    if (!(buffer || store.array() instanceof SharedArray) || alone) {
      return;
    }
    if (!readsSameElement(store, forms)) {
      // a plain store: a race Java does not have only where all write one element, each its own
      // value
      if (forms.form(store.index()) instanceof IndexForm.Affine index
          && IndexForm.sameForAll(index, buffer)
          && differs(store.value(), buffer)) {
        warnings.add(
            new CheckError(
                store.site(),
                Errors.racyWrite(buffer ? "buffer" : "workgroup array", store.array().name())));
      }
      return;
    }
    if (buffer && oneInWorkgroup && workgroupsOwn(store.index())) {
      return;
    }
    List<LaunchBound> own = bounds.ownElementBounds(store.index());
    if (own == null) {
      warnings.add(
          new CheckError(
              store.site(),
              Errors.racyUpdate(buffer ? "buffer" : "workgroup array", store.array().name())));
    } else {
      String reason =
          "the update of "
              + store.array().name()
              + " on line "
              + store.site().line()
              + " is each invocation's own element";
      own.forEach(
          bound -> launchBounds.add(new LaunchBound(bound.limit(), bound.factors(), reason)));
    }
  }

  /**
   * Whether a buffer index that one invocation per workgroup reaches is that workgroup's own:
   * {@code k·workgroupId(0)} plus what is the same for all, {@code 0 < |k| ≤} the workgroup's size
   * (the workgroup ids stay below {@code 2^31 / size}, so the products do not wrap): {@code
   * out[row]} under {@code if (Gpu.localId(0) == 0)}, {@code row} the workgroup id.
   */
  private boolean workgroupsOwn(Expr index) {
    if (!(forms.form(index) instanceof IndexForm.Affine form)) {
      return false;
    }
    IndexForm.Id workgroup = new IndexForm.Id(Builtin.WORKGROUP_ID, 0);
    int k = form.coefficient(workgroup);
    return k != 0
        && Math.abs(k) <= workgroupSize
        && form.coefficients().keySet().stream()
            .allMatch(term -> term.equals(workgroup) || term.isUniform());
  }

  /**
   * The id of a condition that only one invocation meets, of the workgroup (a local id) or of the
   * dispatch (a global id): {@code id(0) == u} for u the same for all, in a one-dimensional
   * workgroup (whose launch is one-dimensional too), alone or as a side of {@code &&}; null for any
   * other condition.
   */
  private Builtin singleInvocation(Expr condition) {
    // a && b: one invocation meets it where one meets a or one meets b
    if (condition instanceof Expr.Conditional(Expr a, Expr b, Expr.BoolConst(boolean f)) && !f) {
      Builtin first = singleInvocation(a);
      Builtin second = singleInvocation(b);
      return first == Builtin.GLOBAL_ID || second == Builtin.GLOBAL_ID
          ? Builtin.GLOBAL_ID
          : first != null ? first : second;
    }
    if (!oneDimensional
        || !(condition
            instanceof Expr.Binary(BinaryOp op, Expr left, Expr right, PrimType t, Site s))
        || op != BinaryOp.EQ) {
      return null;
    }
    // left - right is ±id(0) plus what is the same for all: one invocation meets it
    if (!(IndexForm.add(forms.form(left), IndexForm.scale(forms.form(right), -1))
        instanceof IndexForm.Affine difference)) {
      return null;
    }
    for (Builtin id : new Builtin[] {Builtin.GLOBAL_ID, Builtin.LOCAL_ID}) {
      IndexForm.Id term = new IndexForm.Id(id, 0);
      int k = difference.coefficient(term);
      boolean rest =
          difference.coefficients().entrySet().stream()
              .allMatch(e -> e.getKey().equals(term) || e.getKey().isUniform());
      if (Math.abs(k) == 1 && rest) {
        return id;
      }
    }
    return null;
  }

  /**
   * Whether a stored value provably differs between the invocations that store it (dispatch-wide
   * for a buffer, workgroup-wide for a workgroup array): it reads an id that does (global and local
   * ids; workgroup ids for a buffer), or loads an element at an index that does, directly or
   * through locals assigned once. A value the analysis cannot follow (a local assigned in a loop)
   * is not: the warning would be a guess.
   */
  private boolean differs(Expr value, boolean global) {
    return Walk.anyIn(
        value,
        e ->
            switch (e) {
              case Expr.BuiltinGet get ->
                  get.builtin() == Builtin.GLOBAL_ID
                      || get.builtin() == Builtin.LOCAL_ID
                      || global && get.builtin() == Builtin.WORKGROUP_ID;
              case Expr.Load load -> differs(load.index(), global);
              case Expr.LocalGet get ->
                  forms.singleAssignment(get.local()) instanceof Expr assigned
                      && differs(assigned, global);
              default -> false;
            });
  }

  /**
   * Whether the value stored reads the element the store writes: a load of it inside the value
   * ({@code bins[v & 15]++}, {@code bins[values[i] & 15] += 1}), or a local assigned once from such
   * a load ({@code int old = bins[b]; bins[b] = old + 1;}).
   */
  private static boolean readsSameElement(Stmt.Store store, IndexForms forms) {
    return Walk.anyIn(
        store.value(),
        e -> {
          Expr read =
              e instanceof Expr.LocalGet get
                      && forms.singleAssignment(get.local()) instanceof Expr.Load load
                  ? load
                  : e;
          return read instanceof Expr.Load load
              && load.array() == store.array()
              && sameIndex(load.index(), store.index(), forms);
        });
  }

  /**
   * Whether two index expressions give the same value: the same expression, where the same tree
   * lowered twice differs only in its sites ({@code bins[values[i] & 15]++} reads and writes
   * through two copies of its index), or the same known affine form.
   */
  private static boolean sameIndex(Expr a, Expr b, IndexForms forms) {
    if (withoutSites(a).equals(withoutSites(b))) {
      return true;
    }
    IndexForm form = forms.form(b);
    return !(form instanceof IndexForm.Unknown) && forms.form(a).equals(form);
  }

  private static Expr withoutSites(Expr expression) {
    return new Rewriter() {
      @Override
      public Expr expression(Expr node) {
        return switch (node) {
          case Expr.Load load -> new Expr.Load(load.array(), expression(load.index()), null);
          case Expr.Binary binary ->
              new Expr.Binary(
                  binary.op(),
                  expression(binary.left()),
                  expression(binary.right()),
                  binary.type(),
                  null);
          default -> super.expression(node);
        };
      }
    }.expression(expression);
  }
}
