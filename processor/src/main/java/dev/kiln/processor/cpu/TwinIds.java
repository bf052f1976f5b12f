package dev.kiln.processor.cpu;

import static dev.kiln.processor.cpu.Bytecode.push;
import static org.objectweb.asm.Opcodes.IADD;
import static org.objectweb.asm.Opcodes.IDIV;
import static org.objectweb.asm.Opcodes.ILOAD;
import static org.objectweb.asm.Opcodes.IMUL;
import static org.objectweb.asm.Opcodes.IREM;

import dev.kiln.processor.ir.Builtin;
import org.objectweb.asm.MethodVisitor;

/**
 * The invocation ids in a CPU twin: held in locals of its frame ({@link TwinFrame}'s slots), or,
 * where the twin streams over global ids, computed from them.
 */
final class TwinIds {
  private final MethodVisitor mv;
  private final boolean streaming;
  private final int[] size;
  private final int[] workgroups;
  private final int[] workgroupId;
  private final int[] localId;
  private final int[] globalId;

  /** Over the slots of the frame's ids (filled in by the prologue), each by axis. */
  TwinIds(
      MethodVisitor mv,
      boolean streaming,
      int[] size,
      int[] workgroups,
      int[] workgroupId,
      int[] localId,
      int[] globalId) {
    this.mv = mv;
    this.streaming = streaming;
    this.size = size;
    this.workgroups = workgroups;
    this.workgroupId = workgroupId;
    this.localId = localId;
    this.globalId = globalId;
  }

  /** Pushes {@code builtin}'s value along {@code axis} for the invocation running. */
  void load(Builtin builtin, int axis) {
    if (!streaming) {
      switch (builtin) {
        case GLOBAL_ID -> mv.visitVarInsn(ILOAD, globalId[axis]);
        case LOCAL_ID -> mv.visitVarInsn(ILOAD, localId[axis]);
        case WORKGROUP_ID -> mv.visitVarInsn(ILOAD, workgroupId[axis]);
        case NUM_WORKGROUPS -> mv.visitVarInsn(ILOAD, workgroups[axis]);
      }
      return;
    }
    switch (builtin) { // the loops hold global ids: the others follow from them
      case GLOBAL_ID -> mv.visitVarInsn(ILOAD, globalId[axis]);
      case LOCAL_ID -> {
        mv.visitVarInsn(ILOAD, globalId[axis]);
        push(mv, size[axis]);
        mv.visitInsn(IREM);
      }
      case WORKGROUP_ID -> {
        mv.visitVarInsn(ILOAD, globalId[axis]);
        push(mv, size[axis]);
        mv.visitInsn(IDIV);
      }
      case NUM_WORKGROUPS -> mv.visitVarInsn(ILOAD, workgroups[axis]);
    }
  }

  /** The invocation's index in its workgroup, from the global ids of the streaming loops. */
  void localIndexStreaming() {
    load(Builtin.LOCAL_ID, 2);
    push(mv, size[1]);
    mv.visitInsn(IMUL);
    load(Builtin.LOCAL_ID, 1);
    mv.visitInsn(IADD);
    push(mv, size[0]);
    mv.visitInsn(IMUL);
    load(Builtin.LOCAL_ID, 0);
    mv.visitInsn(IADD);
  }
}
