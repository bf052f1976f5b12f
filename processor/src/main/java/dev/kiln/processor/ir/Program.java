package dev.kiln.processor.ir;

import dev.kiln.abi.AliasConflict;
import dev.kiln.abi.LaunchBound;
import dev.kiln.abi.SplitForm;
import java.util.List;

/**
 * One compute program: a kernel, or the arms of a fuse group run one after the other. It binds its
 * buffers in binding order and its scalars in push-constant order; {@code arms} is the number of
 * arms whose grids the launch passes ({@link PushConstantBlock}); 1 for a kernel. Each invocation
 * handles {@code elementsPerInvocation} consecutive elements of the grid along x (4 once
 * vectorized; the runtime dispatches that many times fewer invocations). With {@code boundsChecks}
 * every array access is checked against the array's length, and a faulty one is dropped and
 * reported. {@code launchBounds} are what the launch must keep for the proofs the program was
 * checked or fused by (the module carries them; the runtime checks them). {@code split} says how a
 * launch may run split across devices ({@link SplitForm#UNKNOWN} until the passes decide it, before
 * vectorization; the module carries it). {@code aliasConflicts} are the pairs of buffers one array
 * may not be passed for ({@link AliasConflict}; none until the passes decide them, before
 * vectorization; the module carries them).
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
    int elementsPerInvocation,
    List<LaunchBound> launchBounds,
    SplitForm split,
    List<AliasConflict> aliasConflicts) {

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
    launchBounds = distinctConditions(launchBounds);
    java.util.Objects.requireNonNull(split);
    aliasConflicts = List.copyOf(aliasConflicts);
  }

  /** A program whose invocations each handle one element of the grid along x. */
  public Program(
      String name,
      Workgroup workgroup,
      int arms,
      boolean boundsChecks,
      List<BufferDecl> buffers,
      List<SharedArray> shared,
      List<PrivateArray> privates,
      List<ScalarParam> scalars,
      List<Local> locals,
      List<Stmt> body) {
    this(
        name,
        workgroup,
        arms,
        boundsChecks,
        buffers,
        shared,
        privates,
        scalars,
        locals,
        body,
        1,
        List.of(),
        SplitForm.UNKNOWN,
        List.of());
  }

  /** The same program with another body and locals. */
  public Program withBody(List<Local> newLocals, List<Stmt> newBody) {
    return new Program(
        name,
        workgroup,
        arms,
        boundsChecks,
        buffers,
        shared,
        privates,
        scalars,
        newLocals,
        newBody,
        elementsPerInvocation,
        launchBounds,
        split,
        aliasConflicts);
  }

  /**
   * The same program with another body and locals, each invocation handling {@code elements}
   * elements along x.
   */
  public Program withBody(List<Local> newLocals, List<Stmt> newBody, int elements) {
    return new Program(
        name,
        workgroup,
        arms,
        boundsChecks,
        buffers,
        shared,
        privates,
        scalars,
        newLocals,
        newBody,
        elements,
        launchBounds,
        split,
        aliasConflicts);
  }

  /** The same program with {@code bounds} for its launches, in place of its own. */
  public Program withLaunchBounds(List<LaunchBound> bounds) {
    return new Program(
        name,
        workgroup,
        arms,
        boundsChecks,
        buffers,
        shared,
        privates,
        scalars,
        locals,
        body,
        elementsPerInvocation,
        bounds,
        split,
        aliasConflicts);
  }

  /** The same program, split across devices as {@code form} says. */
  public Program withSplit(SplitForm form) {
    return new Program(
        name,
        workgroup,
        arms,
        boundsChecks,
        buffers,
        shared,
        privates,
        scalars,
        locals,
        body,
        elementsPerInvocation,
        launchBounds,
        form,
        aliasConflicts);
  }

  /** The same program, with {@code conflicts} for the arrays its launches may be given. */
  public Program withAliasConflicts(List<AliasConflict> conflicts) {
    return new Program(
        name,
        workgroup,
        arms,
        boundsChecks,
        buffers,
        shared,
        privates,
        scalars,
        locals,
        body,
        elementsPerInvocation,
        launchBounds,
        split,
        conflicts);
  }

  /** One bound per condition: the first one's reason stands for the proofs that need the same. */
  private static List<LaunchBound> distinctConditions(List<LaunchBound> bounds) {
    java.util.Map<List<Object>, LaunchBound> distinct = new java.util.LinkedHashMap<>();
    bounds.forEach(bound -> distinct.putIfAbsent(List.of(bound.limit(), bound.factors()), bound));
    return List.copyOf(distinct.values());
  }

  /** Whether the body waits at workgroup barriers. */
  public boolean usesBarriers() {
    return Walk.anyStatement(body, statement -> statement instanceof Stmt.Barrier);
  }
}
