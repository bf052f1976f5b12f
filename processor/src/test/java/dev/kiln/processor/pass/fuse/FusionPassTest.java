package dev.kiln.processor.pass.fuse;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static dev.kiln.processor.ir.Ir.c;
import static dev.kiln.processor.ir.Ir.get;
import static dev.kiln.processor.ir.Ir.gid;
import static dev.kiln.processor.ir.Ir.lid;
import static dev.kiln.processor.ir.Ir.load;
import static dev.kiln.processor.ir.Ir.op;
import static dev.kiln.processor.ir.Ir.store;
import static dev.kiln.processor.ir.Ir.wid;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Ir;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import dev.kiln.processor.ir.Workgroup;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fusion pass on hand-built IR: renaming, gating, barriers, returns, and each refusal. */
class FusionPassTest {
  /** {@code i = globalId(0); buffer[i] = buffer[i] + 1} */
  private static Program elementwise(String name, int width, String buffer) {
    Ir ir = Ir.kernel(name, width).buffer(buffer, PrimType.FLOAT);
    Local i = ir.local("i");
    return ir.add(
            Ir.assign(i, gid()),
            store(buffer, get(i), op(BinaryOp.ADD, load(buffer, get(i)), new Expr.FloatConst(1f))))
        .program();
  }

  private static Fusion.Result.Fused fused(Program... arms) {
    Fusion.Result result =
        Fusion.fuse(
            "g", java.util.Arrays.stream(arms).map(p -> new Arm(p.name(), true, p)).toList());
    assertThat(result).isInstanceOf(Fusion.Result.Fused.class);
    return (Fusion.Result.Fused) result;
  }

  private static List<FusionError> refused(List<Arm> arms) {
    Fusion.Result result = Fusion.fuse("g", arms);
    assertThat(result).isInstanceOf(Fusion.Result.Refused.class);
    return ((Fusion.Result.Refused) result).errors();
  }

  @Test
  void renamingNeverCaptures() {
    Program fused = fused(elementwise("a", 64, "x"), elementwise("b", 64, "x")).program();
    Set<Local> assigned = new HashSet<>();
    Walk.statements(
        fused.body(),
        s -> {
          if (s instanceof Stmt.Assign assign) {
            assertWithMessage("each arm's i is its own local")
                .that(assigned.add(assign.local()))
                .isTrue();
          }
        });
    assertThat(assigned).hasSize(2);
    assertThat(fused.locals()).containsExactlyElementsIn(assigned);
  }

  @Test
  void everyArmIsGatedByItsOwnGrid() {
    Program fused =
        fused(elementwise("a", 64, "x"), elementwise("b", 128, "y"), elementwise("c", 32, "x"))
            .program();
    assertThat(fused.arms()).isEqualTo(3);
    assertThat(fused.workgroup()).isEqualTo(new Workgroup(128, 1, 1));
    assertThat(fused.body()).hasSize(3);
    for (int arm = 0; arm < 3; arm++) {
      Stmt.If gate = (Stmt.If) fused.body().get(arm);
      assertThat(gate.condition()).isEqualTo(new Expr.InLaunch(arm, false));
    }
  }

  @Test
  void sameLaneNeedsNoBarrierWorkgroupConfinedNeedsOne() {
    assertThat(fused(elementwise("a", 64, "x"), elementwise("b", 64, "x")).barrierBefore())
        .containsExactly(false, false);

    Ir reader = Ir.kernel("mirror", 64).buffer("x", PrimType.FLOAT).buffer("out", PrimType.FLOAT);
    Expr partner = op(BinaryOp.ADD, op(BinaryOp.MUL, wid(), c(64)), op(BinaryOp.SUB, c(63), lid()));
    reader.add(store("out", gid(), load("x", partner)));
    Fusion.Result.Fused fused =
        fused(elementwise("a", 64, "x"), reader.program(), elementwise("c", 64, "out"));
    assertThat(fused.barrierBefore()).containsExactly(false, true, false);
    assertThat(fused.program().body().get(1)).isInstanceOf(Stmt.Barrier.class);
    assertThat(Walk.anyStatement(fused.program().body(), s -> s instanceof Stmt.Barrier)).isTrue();
  }

  @Test
  void oneBarrierServesEveryLaterArm() {
    Ir reader = Ir.kernel("mirror", 64).buffer("x", PrimType.FLOAT).buffer("out", PrimType.FLOAT);
    Expr partner = op(BinaryOp.ADD, op(BinaryOp.MUL, wid(), c(64)), op(BinaryOp.SUB, c(63), lid()));
    reader.add(store("out", gid(), load("x", partner)));
    Program mirror = reader.program();
    assertThat(fused(elementwise("a", 64, "x"), mirror, mirror).barrierBefore())
        .containsExactly(false, true, false);
  }

  @Test
  void returnEndsItsArmOnly() {
    Ir ir = Ir.kernel("early", 64).buffer("x", PrimType.FLOAT);
    ir.add(
        new Stmt.If(op(BinaryOp.GT, gid(), c(5)), List.of(new Stmt.Return()), List.of()),
        store("x", gid(), new Expr.FloatConst(2f)));
    Program fused =
        Fusion.fuse(
                    "g",
                    List.of(
                        new Arm("early", true, ir.program()),
                        new Arm("b", true, elementwise("b", 64, "x"))))
                instanceof Fusion.Result.Fused f
            ? f.program()
            : null;
    assertThat(fused).isNotNull();
    assertWithMessage("no return is left")
        .that(Walk.anyStatement(fused.body(), s -> s instanceof Stmt.Return))
        .isFalse();
    Stmt.If first = (Stmt.If) fused.body().getFirst();
    assertThat(first.then().getFirst()).isInstanceOf(Stmt.Loop.class);
    assertWithMessage("arm 1 still runs after arm 0's loop")
        .that(fused.body().get(1))
        .isInstanceOf(Stmt.If.class);
  }

  @Test
  void differentLanesAreAliasing() {
    Ir shifted = Ir.kernel("shifted", 64).buffer("x", PrimType.FLOAT);
    shifted.add(store("x", op(BinaryOp.ADD, gid(), c(1)), new Expr.FloatConst(0f)));
    List<FusionError> errors =
        refused(
            List.of(
                new Arm("a", true, elementwise("a", 64, "x")),
                new Arm("shifted", true, shifted.program())));
    assertThat(errors).hasSize(1);
    FusionError.Aliasing aliasing = (FusionError.Aliasing) errors.getFirst();
    assertThat(aliasing.buffer()).isEqualTo("x");
    assertThat(aliasing.arm()).isEqualTo(1);
    assertThat(aliasing.analyzable()).isTrue();
  }

  @Test
  void overDispatchBoundaryIsInclusive() {
    Program flat = elementwise("flat", 64, "x");
    assertThat(fused(flat, elementwise("y", 64, "y")).program().workgroup())
        .isEqualTo(new Workgroup(64, 1, 1));
    Program four = Ir.kernel("four", new Workgroup(1, 4, 1)).buffer("z", PrimType.FLOAT).program();
    Program five = Ir.kernel("five", new Workgroup(1, 5, 1)).buffer("z", PrimType.FLOAT).program();
    assertThat(fused(flat, four).program().workgroup()).isEqualTo(new Workgroup(64, 4, 1));
    List<FusionError> errors =
        refused(List.of(new Arm("flat", true, flat), new Arm("five", true, five)));
    assertThat(errors)
        .containsExactly(
            new FusionError.OverDispatch(
                "g", 1, "five", new Workgroup(64, 5, 1), 320, 0, "flat", 64));
  }

  @Test
  void barrierArmUnderAWiderWorkgroupIsGeometry() {
    Program scan =
        Ir.kernel("scan", 64)
            .buffer("x", PrimType.FLOAT)
            .add(new Stmt.Barrier(Ir.site()))
            .program();
    List<FusionError> errors =
        refused(
            List.of(
                new Arm("wide", true, elementwise("wide", 256, "y")), new Arm("scan", true, scan)));
    assertThat(errors)
        .containsExactly(
            new FusionError.WorkgroupGeometry(
                "g",
                1,
                "scan",
                new Workgroup(64, 1, 1),
                new Workgroup(256, 1, 1),
                "waits at Gpu.barrier()"));
  }

  @Test
  void selfAliasingAndTypeConflicts() {
    Program cursor = elementwise("cursor", 64, "x");
    assertThat(refused(List.of(new Arm("cursor", false, cursor), new Arm("cursor", false, cursor))))
        .containsExactly(new FusionError.SelfAliasing("g", "cursor", 0, 1));
    Program ints = Ir.kernel("ints", 64).buffer("x", PrimType.INT).program();
    assertThat(refused(List.of(new Arm("a", true, cursor), new Arm("ints", true, ints))))
        .containsExactly(
            new FusionError.TypeConflict("g", "x", 0, "a", "float[]", 1, "ints", "int[]"));
  }

  @Test
  void buffersBoundInFirstSeenOrderScalarsSharedByName() {
    Program a =
        Ir.kernel("a", 64).buffer("x", PrimType.FLOAT).scalar("s", PrimType.FLOAT).program();
    Program b =
        Ir.kernel("b", 64)
            .buffer("y", PrimType.FLOAT)
            .buffer("x", PrimType.FLOAT)
            .scalar("t", PrimType.INT)
            .scalar("s", PrimType.FLOAT)
            .program();
    Program fused = fused(a, b).program();
    assertThat(
            fused.buffers().stream().map(buffer -> buffer.name() + "@" + buffer.binding()).toList())
        .containsExactly("x@0", "y@1")
        .inOrder();
    assertThat(fused.scalars().stream().map(s -> s.name()).toList())
        .containsExactly("s", "t")
        .inOrder();
  }
}
