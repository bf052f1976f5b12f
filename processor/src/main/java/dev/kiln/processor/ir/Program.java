package dev.kiln.processor.ir;

import java.util.List;

/**
 * One compute kernel: what it binds, what it declares and what it does. Buffers are in binding
 * order, scalars in push-constant order. With {@code boundsChecks} every buffer access is checked
 * against the buffer's length, and a faulty one is dropped and reported.
 */
public record Program(
    String name,
    Workgroup workgroup,
    boolean boundsChecks,
    List<BufferDecl> buffers,
    List<SharedArray> shared,
    List<PrivateArray> privates,
    List<ScalarParam> scalars,
    List<Local> locals,
    List<Stmt> body) {

  public Program {
    buffers = List.copyOf(buffers);
    shared = List.copyOf(shared);
    privates = List.copyOf(privates);
    scalars = List.copyOf(scalars);
    locals = List.copyOf(locals);
    body = List.copyOf(body);
  }

  /** Whether the body waits at workgroup barriers; then whole workgroups run, past the count too. */
  public boolean usesBarriers() {
    return Statements.any(body, statement -> statement instanceof Stmt.Barrier);
  }
}
