package dev.kiln.processor.cpu;

import static dev.kiln.processor.cpu.Bytecode.push;
import static org.objectweb.asm.Opcodes.*;

import dev.kiln.abi.SubgroupLanes;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Intrinsic;
import dev.kiln.processor.ir.Stmt;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Type;

/**
 * A CPU twin's subgroup operations: each is a statement {@code result = op(operands)} (made so by
 * {@link SubgroupStatements}) that runs once per subgroup, over the per-invocation arrays of its
 * operands and result, through {@link SubgroupLanes#apply}.
 */
final class TwinSubgroups {
  static final String LANES = Type.getInternalName(SubgroupLanes.class);

  private TwinSubgroups() {}

  /**
   * The {@link SubgroupLanes} code of a function that {@link Intrinsic#combinesLanes()}; -1 for the
   * others.
   */
  static int code(Intrinsic function) {
    return switch (function) {
      case SUBGROUP_ADD -> SubgroupLanes.ADD;
      case SUBGROUP_MIN -> SubgroupLanes.MIN;
      case SUBGROUP_MAX -> SubgroupLanes.MAX;
      case SUBGROUP_INCLUSIVE_ADD -> SubgroupLanes.INCLUSIVE_ADD;
      case SUBGROUP_EXCLUSIVE_ADD -> SubgroupLanes.EXCLUSIVE_ADD;
      case SUBGROUP_CLUSTERED_ADD -> SubgroupLanes.CLUSTERED_ADD;
      case SUBGROUP_CLUSTERED_MIN -> SubgroupLanes.CLUSTERED_MIN;
      case SUBGROUP_CLUSTERED_MAX -> SubgroupLanes.CLUSTERED_MAX;
      case SUBGROUP_BROADCAST -> SubgroupLanes.BROADCAST;
      case SUBGROUP_SHUFFLE -> SubgroupLanes.SHUFFLE;
      case SUBGROUP_SHUFFLE_XOR -> SubgroupLanes.SHUFFLE_XOR;
      case SUBGROUP_SHUFFLE_UP -> SubgroupLanes.SHUFFLE_UP;
      case SUBGROUP_SHUFFLE_DOWN -> SubgroupLanes.SHUFFLE_DOWN;
      case SUBGROUP_BALLOT -> SubgroupLanes.BALLOT;
      case SUBGROUP_ANY -> SubgroupLanes.ANY;
      case SUBGROUP_ALL -> SubgroupLanes.ALL;
      case SUBGROUP_ELECT -> SubgroupLanes.ELECT;
      case SUBGROUP_PARTITION -> SubgroupLanes.PARTITION;
      case SUBGROUP_PARTITIONED_ADD -> SubgroupLanes.PARTITIONED_ADD;
      case SUBGROUP_PARTITIONED_MIN -> SubgroupLanes.PARTITIONED_MIN;
      case SUBGROUP_PARTITIONED_MAX -> SubgroupLanes.PARTITIONED_MAX;
      default -> -1;
    };
  }

  /**
   * Whether {@code statement} is one subgroup operation, as {@link SubgroupStatements} writes it.
   */
  static boolean isOperation(Stmt statement) {
    return statement instanceof Stmt.Assign assign && SubgroupStatements.isExchange(assign.value());
  }

  /**
   * {@code SubgroupLanes.apply(op, in, second, constant, out, done, first, end)} for the subgroup
   * of lanes {@code first .. end-1} (the frame's slots).
   */
  static void emit(TwinFrame f, Stmt.Assign statement, int first, int end) {
    MethodVisitor mv = f.mv;
    Expr.Call call = (Expr.Call) statement.value();
    push(mv, code(call.function()));
    if (call.arguments().isEmpty()) {
      mv.visitInsn(ACONST_NULL);
    } else {
      mv.visitVarInsn(ALOAD, f.localSlot(((Expr.LocalGet) call.arguments().getFirst()).local()));
    }
    int constant = 0;
    if (call.arguments().size() > 1 && call.arguments().get(1) instanceof Expr.LocalGet second) {
      mv.visitVarInsn(ALOAD, f.localSlot(second.local()));
    } else {
      mv.visitInsn(ACONST_NULL);
      if (call.arguments().size() > 1) {
        constant = ((Expr.IntConst) call.arguments().get(1)).value();
      }
    }
    push(mv, constant);
    mv.visitVarInsn(ALOAD, f.localSlot(statement.local()));
    mv.visitVarInsn(ALOAD, f.done);
    mv.visitVarInsn(ILOAD, first);
    mv.visitVarInsn(ILOAD, end);
    mv.visitMethodInsn(INVOKESTATIC, LANES, "apply", SubgroupLanes.APPLY_DESCRIPTOR, false);
  }
}
