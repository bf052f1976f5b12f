package dev.kiln.processor.pass;

import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Label;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.Rewriter;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Rewrites labelled {@code break} and {@code continue} into what structured SPIR-V can branch to:
 * only the innermost loop or switch. A jump to an outer loop stores a code in a {@code jump} local
 * and breaks out; after each construct a jump may leave, the enclosing loop or switch checks the
 * code and breaks or continues in turn, until the target loop acts on it.
 */
public final class LabelledJumps {
  private final Supplier<Local> newJumpLocal;
  private final Map<Label, Integer> codes = new HashMap<>();
  private final Deque<Frame> frames = new ArrayDeque<>();
  private Local jump;

  /** A loop or switch being rewritten; {@code label} is null for switches and unlabelled loops. */
  private record Frame(boolean isLoop, Label label) {}

  private LabelledJumps(Supplier<Local> newJumpLocal) {
    this.newJumpLocal = newJumpLocal;
  }

  /** {@code body} without labelled jumps to other than the innermost loop or switch. */
  public static List<Stmt> lower(List<Stmt> body, Supplier<Local> newJumpLocal) {
    LabelledJumps pass = new LabelledJumps(newJumpLocal);
    List<Stmt> lowered = pass.statements(body, new HashSet<>());
    if (pass.jump == null) {
      return lowered;
    }
    List<Stmt> withReset = new ArrayList<>();
    withReset.add(new Stmt.Assign(pass.jump, new Expr.IntConst(0)));
    withReset.addAll(lowered);
    return withReset;
  }

  /** Rewrites {@code statements}, adding to {@code pending} the labels of loops a jump left for. */
  private List<Stmt> statements(List<Stmt> statements, Set<Label> pending) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt statement : statements) {
      switch (statement) {
        case Stmt.Break(Label label) when label != null && !isInnermost(label, false) -> {
          out.add(new Stmt.Assign(jump(), new Expr.IntConst(code(label))));
          out.add(new Stmt.Break());
          pending.add(label);
        }
        case Stmt.Continue(Label label) when label != null && !isInnermost(label, true) -> {
          out.add(new Stmt.Assign(jump(), new Expr.IntConst(code(label) + 1)));
          out.add(new Stmt.Break());
          pending.add(label);
        }
        case Stmt.Break b -> out.add(new Stmt.Break());
        case Stmt.Continue c -> out.add(new Stmt.Continue());
        case Stmt.If branch ->
            out.add(
                new Stmt.If(
                    inner(branch.condition()),
                    statements(branch.then(), pending),
                    statements(branch.otherwise(), pending)));
        case Stmt.Loop loop -> {
          Set<Label> inner = new HashSet<>();
          frames.push(new Frame(true, loop.label()));
          List<Stmt> body = statements(loop.body(), inner);
          List<Stmt> update = statements(loop.update(), inner);
          frames.pop();
          out.add(
              new Stmt.Loop(
                  inner(loop.condition()),
                  loop.testFirst(),
                  body,
                  update,
                  loop.label(),
                  loop.site(),
                  loop.unroll()));
          inner.remove(loop.label());
          afterConstruct(inner, pending, out);
        }
        case Stmt.Switch choice -> {
          Set<Label> inner = new HashSet<>();
          frames.push(new Frame(false, null));
          List<Stmt.Case> cases = new ArrayList<>();
          for (Stmt.Case branch : choice.cases()) {
            cases.add(
                new Stmt.Case(
                    branch.labels(), branch.isDefault(), statements(branch.body(), inner)));
          }
          frames.pop();
          out.add(new Stmt.Switch(inner(choice.selector()), cases));
          afterConstruct(inner, pending, out);
        }
        case Stmt.Assign a -> out.add(new Stmt.Assign(a.local(), inner(a.value())));
        case Stmt.Store s ->
            out.add(new Stmt.Store(s.array(), inner(s.index()), inner(s.value()), s.site()));
        case Stmt.Atomic a ->
            out.add(
                new Stmt.Atomic(
                    a.result(),
                    a.op(),
                    a.array(),
                    inner(a.index()),
                    inner(a.value()),
                    a.expected() == null ? null : inner(a.expected()),
                    a.site()));
        case Stmt.Barrier b -> out.add(b);
        case Stmt.Matrix m ->
            out.add(
                new Stmt.Matrix(
                    m.op().withScalars(m.op().scalars().stream().map(this::inner).toList()),
                    m.site()));
        case Stmt.ClearArray c -> out.add(c);
        case Stmt.Copy c ->
            out.add(
                new Stmt.Copy(
                    c.source(),
                    inner(c.sourceIndex()),
                    c.target(),
                    inner(c.targetIndex()),
                    c.length(),
                    c.site()));
        case Stmt.DeclareShared d -> out.add(d);
        case Stmt.VectorLoad v ->
            out.add(new Stmt.VectorLoad(v.buffer(), inner(v.vector()), v.lanes()));
        case Stmt.VectorStore v ->
            out.add(
                new Stmt.VectorStore(
                    v.buffer(), inner(v.vector()), v.lanes().stream().map(this::inner).toList()));
        case Stmt.Return r -> out.add(r);
        case Stmt.Call call -> throw call.unlinked();
      }
    }
    return out;
  }

  /**
   * {@code expression} with the statements of its effects rewritten too (an inlined helper's {@code
   * return} in a loop, a switch expression's {@code yield}). Each effect is a construct of its own:
   * its jumps target only its own loops, as Java allows no jump out of an expression, so it is
   * rewritten with no enclosing loop or switch.
   */
  private Expr inner(Expr expression) {
    boolean[] effects = {false};
    Walk.expression(expression, node -> effects[0] |= node instanceof Expr.Effect);
    if (!effects[0]) {
      return expression;
    }
    return new Rewriter() {
      @Override
      public Expr expression(Expr node) {
        if (node instanceof Expr.Effect effect) {
          Deque<Frame> outer = new ArrayDeque<>(frames);
          frames.clear();
          Set<Label> pending = new HashSet<>();
          List<Stmt> statements = LabelledJumps.this.statements(effect.statements(), pending);
          frames.addAll(outer);
          if (!pending.isEmpty()) {
            throw new IllegalStateException("a jump leaves an expression for " + pending);
          }
          return new Expr.Effect(statements, expression(effect.value()));
        }
        return super.expression(node);
      }
    }.expression(expression);
  }

  /**
   * After a construct that a jump left: the enclosing loop acts on a jump meant for it, and any
   * other jump goes on outward.
   */
  private void afterConstruct(Set<Label> left, Set<Label> pending, List<Stmt> out) {
    if (left.isEmpty()) {
      return;
    }
    Frame enclosing = frames.peek();
    Expr.LocalGet code = new Expr.LocalGet(jump());
    List<Stmt> outward = List.of(new Stmt.Break());
    Stmt dispatch =
        new Stmt.If(new Expr.Binary(BinaryOp.NE, code, new Expr.IntConst(0)), outward, List.of());
    if (enclosing != null
        && enclosing.isLoop()
        && enclosing.label() != null
        && left.contains(enclosing.label())) {
      int breakCode = code(enclosing.label());
      Stmt reset = new Stmt.Assign(jump(), new Expr.IntConst(0));
      dispatch =
          new Stmt.If(
              new Expr.Binary(BinaryOp.EQ, code, new Expr.IntConst(breakCode)),
              List.of(reset, new Stmt.Break()),
              List.of(
                  new Stmt.If(
                      new Expr.Binary(BinaryOp.EQ, code, new Expr.IntConst(breakCode + 1)),
                      List.of(reset, new Stmt.Continue()),
                      List.of(dispatch))));
      left.remove(enclosing.label());
    }
    out.add(dispatch);
    pending.addAll(left);
  }

  /**
   * Whether {@code label} names the innermost loop ({@code continue}) or loop or switch ({@code
   * break}).
   */
  private boolean isInnermost(Label label, boolean loopsOnly) {
    for (Frame frame : frames) {
      if (frame.isLoop() || !loopsOnly) {
        return label.equals(frame.label());
      }
    }
    return false;
  }

  /** The break code of the loop labelled {@code label}; its continue code is one more. */
  private int code(Label label) {
    return codes.computeIfAbsent(label, unused -> 2 * codes.size() + 1);
  }

  private Local jump() {
    if (jump == null) {
      jump = newJumpLocal.get();
    }
    return jump;
  }
}
