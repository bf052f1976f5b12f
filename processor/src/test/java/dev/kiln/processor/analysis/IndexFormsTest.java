package dev.kiln.processor.analysis;

import static com.google.common.truth.Truth.assertWithMessage;
import static dev.kiln.processor.ir.Ir.c;
import static dev.kiln.processor.ir.Ir.gid;
import static dev.kiln.processor.ir.Ir.lid;
import static dev.kiln.processor.ir.Ir.op;
import static dev.kiln.processor.ir.Ir.scalar;
import static dev.kiln.processor.ir.Ir.wid;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Ir;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Workgroup;
import org.junit.jupiter.api.Test;

/** The index analysis on a table of index forms, and the orderings it decides. */
class IndexFormsTest {
  private static final Conflicts ONE_D_64 = new Conflicts(new Workgroup(64, 1, 1), true);

  private static String form(Expr index) {
    return IndexForms.of(Ir.kernel("k", 64).program()).form(index).toString();
  }

  private static Conflicts.Ordering order(Expr a, Expr b) {
    IndexForms forms = IndexForms.of(Ir.kernel("k", 64).program());
    return ONE_D_64.order(forms.form(a), forms.form(b));
  }

  @Test
  void formsOfIndexExpressions() {
    Object[][] table = {
      {gid(), "globalId(0)"},
      {op(BinaryOp.ADD, gid(), c(1)), "globalId(0) + 1"},
      {op(BinaryOp.SUB, c(10), gid()), "-1*globalId(0) + 10"},
      {op(BinaryOp.MUL, c(3), op(BinaryOp.ADD, gid(), c(2))), "3*globalId(0) + 6"},
      {op(BinaryOp.SHL, gid(), c(2)), "4*globalId(0)"},
      {op(BinaryOp.ADD, op(BinaryOp.MUL, wid(), c(64)), lid()), "localId(0) + 64*workgroupId(0)"},
      {op(BinaryOp.ADD, gid(), scalar("n")), "globalId(0) + scalar n"},
      {op(BinaryOp.SUB, gid(), gid()), "0"},
      {op(BinaryOp.MUL, gid(), gid()), "(globalId(0))*(globalId(0))"},
      {
        op(BinaryOp.MUL, op(BinaryOp.ADD, gid(), c(1)), scalar("n")),
        "(globalId(0))*(scalar n) + scalar n"
      },
      {op(BinaryOp.MUL, op(BinaryOp.MUL, gid(), gid()), scalar("n")), "Unknown[]"},
      {op(BinaryOp.DIV, gid(), c(2)), "Unknown[]"},
      {new Expr.Length(Ir.floats("x")), "x.length"},
      {new Expr.BuiltinGet(dev.kiln.processor.ir.Builtin.NUM_WORKGROUPS, 0), "Unknown[]"},
      {new Expr.Unary(dev.kiln.processor.ir.UnaryOp.COMPLEMENT, gid()), "-1*globalId(0) + -1"},
    };
    for (Object[] row : table) {
      assertWithMessage("form of %s", row[0]).that(form((Expr) row[0])).isEqualTo(row[1]);
    }
  }

  @Test
  void localsAssignedOnceAreSeenThroughOthersAreNot() {
    Ir ir = Ir.kernel("k", 64);
    Local once = ir.local("once");
    Local twice = ir.local("twice");
    Program program =
        ir.add(
                Ir.assign(once, op(BinaryOp.ADD, gid(), c(1))),
                Ir.assign(twice, gid()),
                Ir.assign(twice, op(BinaryOp.ADD, Ir.get(twice), c(1))))
            .program();
    IndexForms forms = IndexForms.of(program);
    assertWithMessage("once")
        .that(forms.form(Ir.get(once)).toString())
        .isEqualTo("globalId(0) + 1");
    assertWithMessage("twice")
        .that(forms.form(Ir.get(twice)))
        .isInstanceOf(IndexForm.Unknown.class);
  }

  @Test
  void orderingsOfPairs() {
    Expr gid = gid();
    Expr reversedInGroup =
        op(BinaryOp.ADD, op(BinaryOp.MUL, wid(), c(64)), op(BinaryOp.SUB, c(63), lid()));
    Object[][] table = {
      {gid, gid, Conflicts.Ordering.SAME_LANE},
      {op(BinaryOp.MUL, gid, c(2)), op(BinaryOp.MUL, gid, c(2)), Conflicts.Ordering.SAME_LANE},
      // 4·p = 4·q (mod 2^32) also for p = q + 2^30: not one-to-one on the ids
      {op(BinaryOp.MUL, gid, c(4)), op(BinaryOp.MUL, gid, c(4)), Conflicts.Ordering.NONE},
      {
        op(BinaryOp.ADD, gid, scalar("n")),
        op(BinaryOp.ADD, gid, scalar("n")),
        Conflicts.Ordering.SAME_LANE
      },
      {gid, op(BinaryOp.ADD, gid, c(1)), Conflicts.Ordering.NONE},
      {gid, reversedInGroup, Conflicts.Ordering.WORKGROUP},
      {op(BinaryOp.ADD, op(BinaryOp.MUL, wid(), c(64)), lid()), gid, Conflicts.Ordering.SAME_LANE},
      {c(0), c(1), Conflicts.Ordering.DISJOINT},
      {c(0), c(0), Conflicts.Ordering.NONE},
      {scalar("n"), op(BinaryOp.ADD, scalar("n"), c(1)), Conflicts.Ordering.DISJOINT},
      {gid, op(BinaryOp.MUL, gid, gid), Conflicts.Ordering.NONE},
    };
    for (Object[] row : table) {
      assertWithMessage("%s against %s", row[0], row[1])
          .that(order((Expr) row[0], (Expr) row[1]))
          .isEqualTo(row[2]);
    }
  }

  @Test
  void inTwoDimensionalLaunchesNothingIsProvedPerLane() {
    Conflicts twoD = new Conflicts(new Workgroup(16, 16, 1), false);
    IndexForms forms = IndexForms.of(Ir.kernel("k", 64).program());
    assertWithMessage("gid in 2-D")
        .that(twoD.order(forms.form(gid()), forms.form(gid())))
        .isEqualTo(Conflicts.Ordering.NONE);
  }

  @Test
  void floatExpressionsHaveNoForm() {
    assertWithMessage("float")
        .that(IndexForms.of(Ir.kernel("k", 64).program()).form(new Expr.FloatConst(1f)))
        .isInstanceOf(IndexForm.Unknown.class);
  }
}
