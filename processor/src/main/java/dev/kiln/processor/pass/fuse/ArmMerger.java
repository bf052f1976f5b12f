package dev.kiln.processor.pass.fuse;

import dev.kiln.abi.LaunchBound;
import dev.kiln.abi.SplitForm;
import dev.kiln.processor.analysis.Facts;
import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Label;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Rewriter;
import dev.kiln.processor.ir.ScalarParam;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import dev.kiln.processor.ir.Workgroup;
import dev.kiln.processor.pass.Gate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the fused program from arms already found safe: each arm's body with its own locals (fresh
 * ids), labels, private and workgroup arrays, sites that name the arm (its faults come after the
 * earlier arms'), its {@code return} ending the arm only, its {@code Gpu.numWorkgroups} its own,
 * and gated by its own grid; workgroup barriers where {@link Fusion} found them needed.
 */
final class ArmMerger {
  private final List<Local> locals = new ArrayList<>();
  private final List<SharedArray> shared = new ArrayList<>();
  private final List<PrivateArray> privates = new ArrayList<>();
  private final List<Stmt> body = new ArrayList<>();

  private final Map<String, BufferDecl> fusedBuffers = new HashMap<>();

  private ArmMerger(List<BufferDecl> buffers) {
    buffers.forEach(buffer -> fusedBuffers.put(buffer.name(), buffer));
  }

  static Program merge(
      String group,
      Workgroup fused,
      List<Arm> arms,
      List<Facts> facts,
      List<BufferDecl> buffers,
      List<ScalarParam> scalars,
      List<Boolean> barrierBefore,
      List<LaunchBound> launchBounds) {
    ArmMerger merger = new ArmMerger(buffers);
    for (int k = 0; k < arms.size(); k++) {
      if (barrierBefore.get(k)) {
        merger.body.add(new Stmt.Barrier(null));
      }
      merger.add(k, arms.get(k).program(), facts.get(k).barriers());
    }
    boolean boundsChecks = arms.stream().anyMatch(arm -> arm.program().boundsChecks());
    return new Program(
        group,
        fused,
        arms.size(),
        boundsChecks,
        buffers,
        merger.shared,
        merger.privates,
        scalars,
        merger.locals,
        merger.body,
        1,
        launchBounds,
        SplitForm.UNKNOWN,
        List.of());
  }

  private void add(int arm, Program program, boolean barriers) {
    String prefix = "arm" + arm + "$";
    Map<ArrayDecl, ArrayDecl> arrays = new HashMap<>();
    for (BufferDecl buffer : program.buffers()) {
      arrays.put(buffer, fusedBuffers.get(buffer.name()));
    }
    for (SharedArray array : program.shared()) {
      SharedArray own =
          new SharedArray(
              prefix + array.name(), array.element(), array.length(), array.site(), array.packed());
      arrays.put(array, own);
      shared.add(own);
    }
    for (PrivateArray array : program.privates()) {
      PrivateArray own =
          new PrivateArray(prefix + array.name(), array.element(), array.length(), array.site());
      arrays.put(array, own);
      privates.add(own);
    }
    Map<Local, Local> renamed = new HashMap<>();
    for (Local local : program.locals()) {
      Local fresh = Local.fresh(local.name(), local.type());
      renamed.put(local, fresh);
      locals.add(fresh);
    }
    Map<Label, Label> labels = new HashMap<>();
    boolean returns =
        Walk.anyStatement(program.body(), statement -> statement instanceof Stmt.Return);
    Label exit = new Label(prefix + "end");
    Rewriter rewriter =
        new Rewriter() {
          @Override
          protected Local local(Local local) {
            return renamed.computeIfAbsent(
                local,
                let ->
                    Local.fresh(
                        let.name(), let.type())); // a Let's local is not among the program's
          }

          @Override
          protected ArrayDecl array(ArrayDecl array) {
            return arrays.get(array);
          }

          @Override
          protected Site site(Site site) {
            return site == null ? null : site.inArm(arm);
          }

          @Override
          protected Label label(Label label) {
            return labels.computeIfAbsent(label, own -> new Label(prefix + own.name()));
          }

          @Override
          public List<Stmt> statement(Stmt statement) {
            return statement instanceof Stmt.Return
                ? List.of(new Stmt.Break(exit))
                : super.statement(statement);
          }

          @Override
          public Expr expression(Expr expression) {
            if (expression instanceof Expr.BuiltinGet(Builtin builtin, int axis)
                && builtin == Builtin.NUM_WORKGROUPS) {
              return new Expr.ArmWorkgroups(arm, axis, program.workgroup().size(axis));
            }
            return super.expression(expression);
          }
        };
    List<Stmt> armBody = rewriter.statements(program.body());
    if (returns) { // a loop that runs once, so that return can leave the arm and nothing else
      armBody = List.of(Stmt.Loop.once(armBody, exit));
    }
    body.addAll(Gate.arm(armBody, arm, barriers));
  }
}
