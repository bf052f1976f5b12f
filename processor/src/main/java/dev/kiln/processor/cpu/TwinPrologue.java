package dev.kiln.processor.cpu;

import static dev.kiln.processor.cpu.Bytecode.*;
import static org.objectweb.asm.Opcodes.*;

import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.ScalarParam;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.List;

/**
 * The start of a twin method: its arguments unboxed into typed locals, the grids and workgroup
 * counts, the slots of ids, the fault record and jumps, the workgroup and private arrays, and the
 * program's locals (one element per invocation where the invocations run side by side).
 */
final class TwinPrologue {
  private TwinPrologue() {}

  /** Declares and sets {@code f}'s slots, at the top of its method. */
  static void emit(TwinFrame f) {
    for (BufferDecl buffer : f.program.buffers()) {
      int slot = f.nextSlot++;
      f.argument(buffer.name());
      f.mv.visitTypeInsn(CHECKCAST, Bytecode.arrayDescriptor(buffer.element()));
      f.mv.visitVarInsn(ASTORE, slot);
      f.arrays.put(buffer.name(), slot);
    }
    for (ScalarParam scalar : f.program.scalars()) {
      int slot = f.slot(scalar.type());
      f.argument(scalar.name());
      f.unbox(scalar.type());
      f.mv.visitVarInsn(store(scalar.type()), slot);
      f.scalars.put(scalar.name(), slot);
    }
    f.counts = new int[f.program.arms()][3];
    for (int arm = 0; arm < f.program.arms(); arm++) {
      for (int axis = 0; axis < 3; axis++) {
        f.counts[arm][axis] = f.nextSlot++;
        f.mv.visitVarInsn(ALOAD, TwinFrame.GRIDS);
        push(f.mv, 3 * arm + axis);
        f.mv.visitInsn(IALOAD);
        f.mv.visitVarInsn(ISTORE, f.counts[arm][axis]);
      }
    }
    for (int axis = 0; axis < 3; axis++) { // workgroups along each axis: ceil(dispatch / size)
      f.workgroups[axis] = f.nextSlot++;
      f.mv.visitVarInsn(ILOAD, 2 + axis);
      push(f.mv, f.size[axis]);
      f.mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "ceilDiv", "(II)I", false);
      f.mv.visitVarInsn(ISTORE, f.workgroups[axis]);
      f.workgroupId[axis] = f.intSlot(0);
      f.localId[axis] = f.intSlot(0);
      f.globalId[axis] = f.intSlot(0);
    }
    f.group = f.intSlot(0);
    f.invocation = f.intSlot(0);
    f.site = f.intSlot(-1);
    f.jump = f.intSlot(0);
    f.condition = f.intSlot(0);
    f.rangeFirst = f.intSlot(0);
    f.rangeEnd = f.intSlot(0);
    f.itemsEnd = f.intSlot(0);
    f.doneCount = f.intSlot(0);
    f.doneBefore = f.intSlot(0);
    f.accessArray = f.referenceSlot();
    f.accessIndex = f.intSlot(0);
    f.fault = f.referenceSlot();
    f.faultSite = f.intSlot(-1);
    f.faultArm = f.intSlot(0);
    f.arm = f.intSlot(0);
    f.faultArray = f.referenceSlot();
    f.faultIndex = f.intSlot(0);
    f.thrown = f.referenceSlot();
    int invocations = f.size[0] * f.size[1] * f.size[2];
    f.done = f.referenceSlot();
    if (f.cooperative) {
      push(f.mv, invocations);
      f.mv.visitIntInsn(NEWARRAY, T_BOOLEAN);
      f.mv.visitVarInsn(ASTORE, f.done);
    }
    for (SharedArray shared : f.program.shared()) { // before any statement runs, as on Vulkan
      if (shared.length() instanceof Expr.ScalarGet get) { // a negative one throws as Java does
        int slot = f.nextSlot++;
        f.mv.visitVarInsn(ILOAD, f.scalars.get(get.param().name()));
        f.newArrayOf(shared.element());
        f.mv.visitVarInsn(ASTORE, slot);
        f.arrays.put(shared.name(), slot);
      } else {
        f.arrays.put(shared.name(), f.newArray(shared.element(), shared.size()));
      }
    }
    for (PrivateArray array : f.program.privates()) {
      if (f.cooperative) { // one per invocation
        int slot = f.nextSlot++;
        push(f.mv, invocations);
        push(f.mv, array.size());
        f.mv.visitMultiANewArrayInsn("[" + Bytecode.arrayDescriptor(array.element()), 2);
        f.mv.visitVarInsn(ASTORE, slot);
        f.arrays.put(array.name(), slot);
      } else {
        f.arrays.put(array.name(), f.newArray(array.element(), array.size()));
      }
    }
    Walk.expressions(
        f.program.body(),
        e -> {
          if (e instanceof Expr.Checked checked && !f.extents.containsKey(checked.length())) {
            f.extents.put(checked.length(), f.newArray(PrimType.BOOLEAN, checked.length()));
          }
        });
    List<Local> all = new ArrayList<>(f.program.locals());
    Walk.expressions(
        f.program.body(),
        e -> {
          if (e instanceof Expr.Let let && !all.contains(let.local())) {
            all.add(let.local());
          }
        });
    for (Local local : all) {
      if (f.values.id(local) != null) {
        continue; // read as its id
      }
      if (f.cooperative && !f.values.isUniform(local)) {
        int slot = f.nextSlot++;
        push(f.mv, invocations);
        f.newArrayOf(local.type());
        f.mv.visitVarInsn(ASTORE, slot);
        f.locals.put(local, slot);
      } else {
        int slot = f.slot(local.type());
        zero(f.mv, local.type());
        f.mv.visitVarInsn(store(local.type()), slot);
        f.locals.put(local, slot);
      }
    }
  }
}
