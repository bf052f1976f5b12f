package dev.kiln.processor.pass;

import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.pass.fuse.Arm;
import dev.kiln.processor.pass.fuse.Fusion;
import java.util.ArrayList;
import java.util.List;

/** The passes between checked IR and the SPIR-V writer, for a kernel and for a fuse group. */
public final class Passes {
  private Passes() {}

  /** A lowered, checked kernel made ready for the writer: gated, then without labelled jumps. */
  public static Program kernel(Program lowered) {
    return withoutLabelledJumps(Gate.kernel(lowered));
  }

  /** The arms of a group fused (gated inside), then without labelled jumps; or why they cannot be. */
  public static Fusion.Result group(String name, List<Arm> arms) {
    Fusion.Result result = Fusion.fuse(name, arms);
    return result instanceof Fusion.Result.Fused fused
        ? new Fusion.Result.Fused(withoutLabelledJumps(fused.program()), fused.barrierBefore())
        : result;
  }

  static Program withoutLabelledJumps(Program program) {
    Local jump = Local.fresh("jump", PrimType.INT);
    boolean[] used = {false};
    List<Stmt> body = LabelledJumps.lower(program.body(), () -> {
      used[0] = true;
      return jump;
    });
    if (!used[0]) {
      return program.withBody(program.locals(), body);
    }
    List<Local> locals = new ArrayList<>(program.locals());
    locals.add(jump);
    return program.withBody(locals, body);
  }
}
