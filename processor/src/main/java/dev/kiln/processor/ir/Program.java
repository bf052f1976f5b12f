package dev.kiln.processor.ir;

import java.util.List;

/**
 * One compute program: a kernel, or the arms of a fuse group run one after the other. It binds
 * its buffers in binding order and its scalars in push-constant order; {@code arms} is the number
 * of arms whose grids the launch passes ({@link PushConstantBlock}); 1 for a kernel. Each invocation
 * handles {@code elementsPerInvocation} consecutive elements of the grid along x (4 once vectorized;
 * the runtime dispatches that many times fewer invocations). With
 * {@code boundsChecks} every array access is checked against the array's length, and a faulty one is
 * dropped and reported.
 */
public record Program(
    String name,
    Workgroup workgroup,
    int arms,
    boolean boundsChecks,
    List<BufferDecl> buffers,
    List<SharedArray> shared,
    List<PrivateArray> privates,
    List<ScalarParam> scalars,
    List<Local> locals,
    List<Stmt> body,
    int elementsPerInvocation) {

  public Program {
    if (arms < 1) {
      throw new IllegalArgumentException("a program has at least one arm: " + arms);
    }
    if (elementsPerInvocation < 1) {
      throw new IllegalArgumentException("elements per invocation: " + elementsPerInvocation);
    }
    buffers = List.copyOf(buffers);
    shared = List.copyOf(shared);
    privates = List.copyOf(privates);
    scalars = List.copyOf(scalars);
    locals = List.copyOf(locals);
    body = List.copyOf(body);
  }

  /** A program whose invocations each handle one element of the grid along x. */
  public Program(String name, Workgroup workgroup, int arms, boolean boundsChecks, List<BufferDecl> buffers,
      List<SharedArray> shared, List<PrivateArray> privates, List<ScalarParam> scalars, List<Local> locals,
      List<Stmt> body) {
    this(name, workgroup, arms, boundsChecks, buffers, shared, privates, scalars, locals, body, 1);
  }

  /** The same program with another body and locals. */
  public Program withBody(List<Local> newLocals, List<Stmt> newBody) {
    return new Program(name, workgroup, arms, boundsChecks, buffers, shared, privates, scalars, newLocals, newBody,
        elementsPerInvocation);
  }

  /** The same program with another body and locals, each invocation handling {@code elements} elements along x. */
  public Program withBody(List<Local> newLocals, List<Stmt> newBody, int elements) {
    return new Program(name, workgroup, arms, boundsChecks, buffers, shared, privates, scalars, newLocals, newBody,
        elements);
  }

  /** Whether the body waits at workgroup barriers. */
  public boolean usesBarriers() {
    return Walk.anyStatement(body, statement -> statement instanceof Stmt.Barrier);
  }
}
