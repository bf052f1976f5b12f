package dev.kiln.processor.cpu;

import static dev.kiln.processor.cpu.Bytecode.*;
import static org.objectweb.asm.Opcodes.*;

import dev.kiln.abi.CpuFaults;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.SharedArray;
import java.util.List;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;

/**
 * One program's CPU twin: a static method {@code (Object[] args, int[] grids, int dx, int dy, int
 * dz, int first, int end, int subgroupSize)} that runs workgroups {@code first .. end-1} (numbered
 * x fastest) of a dispatch of {@code dx × dy × dz} invocations, with the ids as loop variables and
 * the parameters in typed locals.
 *
 * <ul>
 *   <li>A program without barriers or workgroup memory loops over global ids, consecutive
 *       workgroups along x merged into one loop that C2 can unroll and vectorize.
 *   <li>Otherwise it runs workgroup by workgroup. Code between barriers is a work-item loop over
 *       the workgroup's invocations (the technique of CPU OpenCL implementations such as POCL); a
 *       loop or {@code if} that contains a barrier runs once for the workgroup, its condition
 *       evaluated by every invocation and taken from them (barriers stand in uniform control flow,
 *       which the checks demand). Locals of such a program are one array element per invocation, so
 *       that they live across barriers; an invocation that returns is marked and skipped by later
 *       loops.
 *   <li>A program with subgroup operations runs so too, and a run of statements between barriers
 *       that holds one runs subgroup by subgroup ({@code rangeFirst .. rangeEnd-1}): each operation
 *       once for the subgroup's lanes ({@link TwinSubgroups}), an {@code if} or loop around one at
 *       subgroup level, with the condition its lanes agree on (they must), the rest as work-item
 *       loops over the lanes. {@link TwinRegions} emits these regions.
 * </ul>
 *
 * An array access records its site in a local before it runs. An invocation that throws ends there
 * and the others run on, as on a GPU; once the loops end, the first exception goes to {@code
 * dev.kiln.abi.CpuFaults}, which names kernel, array and line, as the GPU backend does.
 */
final class TwinMethod {
  private final TwinFrame f;
  private final TwinCode code;
  private final TwinRegions regions;
  private final MethodVisitor mv;

  TwinMethod(
      MethodVisitor mv, Program program, boolean gated, List<String> params, String kernelName) {
    this.f = new TwinFrame(mv, program, gated, params, kernelName);
    this.code = new TwinCode(f);
    this.regions = new TwinRegions(f, code);
    this.mv = mv;
  }

  void emit() {
    mv.visitCode();
    TwinPrologue.emit(f);
    if (f.streaming) {
      streamingLoops();
    } else {
      workgroupLoop();
    }
    Label clean = new Label();
    mv.visitVarInsn(ALOAD, f.fault);
    mv.visitJumpInsn(IFNULL, clean);
    mv.visitVarInsn(ALOAD, f.fault);
    mv.visitTypeInsn(CHECKCAST, "java/lang/RuntimeException");
    mv.visitLdcInsn(f.siteTable.toString());
    mv.visitVarInsn(ILOAD, f.faultSite);
    mv.visitVarInsn(ALOAD, f.faultArray);
    mv.visitVarInsn(ILOAD, f.faultIndex);
    mv.visitLdcInsn(f.kernelName);
    mv.visitVarInsn(ILOAD, f.faultArm);
    mv.visitMethodInsn(
        INVOKESTATIC, TwinFrame.FAULTS, "at", CpuFaults.AT_TYPE.toMethodDescriptorString(), false);
    mv.visitInsn(ATHROW);
    mv.visitLabel(clean);
    mv.visitInsn(RETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
  }

  /** Global ids in loops; consecutive workgroups along x form one run of x. */
  private void streamingLoops() {
    int run = f.intSlot(0);
    int xEnd = f.intSlot(0);
    int yEnd = f.intSlot(0);
    int zEnd = f.intSlot(0);
    groups(
        null,
        () -> {
          // run = min(end - group, GX - wx)
          mv.visitVarInsn(ILOAD, TwinFrame.END);
          mv.visitVarInsn(ILOAD, f.group);
          mv.visitInsn(ISUB);
          mv.visitVarInsn(ILOAD, f.workgroups[0]);
          mv.visitVarInsn(ILOAD, f.workgroupId[0]);
          mv.visitInsn(ISUB);
          mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "min", "(II)I", false);
          mv.visitVarInsn(ISTORE, run);
          // x from wx * sx to min((wx + run) * sx, dx)
          mv.visitVarInsn(ILOAD, f.workgroupId[0]);
          mv.visitVarInsn(ILOAD, run);
          mv.visitInsn(IADD);
          push(mv, f.size[0]);
          mv.visitInsn(IMUL);
          mv.visitVarInsn(ILOAD, 2);
          mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "min", "(II)I", false);
          mv.visitVarInsn(ISTORE, xEnd);
          axes(2, new int[] {xEnd, yEnd, zEnd});
        },
        () -> {
          mv.visitVarInsn(ILOAD, f.group);
          mv.visitVarInsn(ILOAD, run);
          mv.visitInsn(IADD);
          mv.visitVarInsn(ISTORE, f.group);
        });
  }

  /**
   * The loops over the global ids of axes {@code axis} down to 0 of a run, the invocation's code
   * inside.
   */
  private void axes(int axis, int[] ends) {
    if (axis < 0) {
      f.current = new TwinFrame.WorkItemLoop();
      regions.invocationBody(() -> code.statements(f.program.body()));
      return;
    }
    countedLoop(
        mv,
        f.globalId[axis],
        () -> axisStart(axis, ends[axis], axis != 0),
        () -> mv.visitVarInsn(ILOAD, ends[axis]),
        null,
        () -> {
          axes(axis - 1, ends);
          if (axis == 0) {
            mv.visitLabel(f.current.next);
            f.current = null;
          }
        },
        null);
  }

  /** {@code id = w * size}; for y and z also {@code end = min(id + size, dispatch)}. */
  private void axisStart(int axis, int end, boolean computeEnd) {
    mv.visitVarInsn(ILOAD, f.workgroupId[axis]);
    push(mv, f.size[axis]);
    mv.visitInsn(IMUL);
    mv.visitVarInsn(ISTORE, f.globalId[axis]);
    if (computeEnd) {
      mv.visitVarInsn(ILOAD, f.globalId[axis]);
      push(mv, f.size[axis]);
      mv.visitInsn(IADD);
      mv.visitVarInsn(ILOAD, 2 + axis);
      mv.visitMethodInsn(INVOKESTATIC, "java/lang/Math", "min", "(II)I", false);
      mv.visitVarInsn(ISTORE, end);
    }
  }

  /**
   * The loop over the workgroups of the range: {@code group} from {@code first} to {@code end},
   * each split into wx, wy, wz before {@code body}; at {@code next} (where given) the loop goes on
   * to the next, or {@code advance}s {@code group} itself.
   */
  private void groups(Label next, Runnable body, Runnable advance) {
    countedLoop(
        mv,
        f.group,
        () -> {
          mv.visitVarInsn(ILOAD, TwinFrame.FIRST);
          mv.visitVarInsn(ISTORE, f.group);
        },
        () -> mv.visitVarInsn(ILOAD, TwinFrame.END),
        next,
        () -> {
          splitGroup();
          body.run();
        },
        advance);
  }

  /** wx, wy, wz of workgroup number {@code group}. */
  private void splitGroup() {
    mv.visitVarInsn(ILOAD, f.group);
    mv.visitVarInsn(ILOAD, f.workgroups[0]);
    mv.visitInsn(IREM);
    mv.visitVarInsn(ISTORE, f.workgroupId[0]);
    mv.visitVarInsn(ILOAD, f.group);
    mv.visitVarInsn(ILOAD, f.workgroups[0]);
    mv.visitInsn(IDIV);
    mv.visitInsn(DUP);
    mv.visitVarInsn(ILOAD, f.workgroups[1]);
    mv.visitInsn(IREM);
    mv.visitVarInsn(ISTORE, f.workgroupId[1]);
    mv.visitVarInsn(ILOAD, f.workgroups[1]);
    mv.visitInsn(IDIV);
    mv.visitVarInsn(ISTORE, f.workgroupId[2]);
  }

  /** Workgroup by workgroup, work-item loops between the barriers. */
  private void workgroupLoop() {
    Label workgroupEnd = new Label();
    groups(
        workgroupEnd,
        () -> {
          for (SharedArray shared :
              f.program.shared()) { // fresh, as each workgroup's arrays are in Java
            mv.visitVarInsn(ALOAD, f.arrays.get(shared.name()));
            zero(mv, shared.element());
            fill(mv, shared.element());
          }
          regions.wholeWorkgroup();
          if (f.cooperative) {
            mv.visitVarInsn(ALOAD, f.done);
            mv.visitInsn(ICONST_0);
            mv.visitMethodInsn(INVOKESTATIC, "java/util/Arrays", "fill", "([ZZ)V", false);
            push(mv, 0);
            mv.visitVarInsn(ISTORE, f.doneCount);
            if (f.subgroups && f.gateInvocations) {
              regions.markOutsideTheDispatch();
            }
          }
          f.workgroupEnd = workgroupEnd;
          regions.region(f.program.body());
        },
        null);
  }
}
