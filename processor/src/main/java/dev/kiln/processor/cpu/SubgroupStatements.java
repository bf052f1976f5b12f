package dev.kiln.processor.cpu;

import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites a program for its CPU twin so that every subgroup operation that combines lanes is a
 * statement of its own, {@code result = op(operands)}, with each operand a local or a constant: the
 * twin runs such a statement once per subgroup, between the work-item loops of its lanes. The parts
 * of an expression left of an operation are evaluated into locals first, so Java's order holds. An
 * operation on one side of a {@code ?:}, {@code &&} or {@code ||}, or in a loop's condition, is not
 * rewritten: the twin is not made, and the kernel runs as its method.
 */
final class SubgroupStatements {
  private final List<Local> added = new ArrayList<>();
  private int nextId;

  private SubgroupStatements(Program program) {
    int[] highest = {0};
    program.locals().forEach(local -> highest[0] = Math.max(highest[0], local.id()));
    Walk.expressions(
        program.body(),
        e -> {
          if (e instanceof Expr.Let let) {
            highest[0] = Math.max(highest[0], let.local().id());
          }
        });
    nextId = highest[0] + 1;
  }

  /** Whether {@code expression} is a subgroup operation that combines the values of lanes. */
  static boolean isExchange(Expr expression) {
    return expression instanceof Expr.Call call && call.function().combinesLanes();
  }

  static boolean hasExchange(List<Stmt> body) {
    return Walk.anyExpression(body, SubgroupStatements::isExchange);
  }

  /** The program with its subgroup operations as statements; itself where it has none. */
  static Program rewrite(Program program) {
    if (!hasExchange(program.body())) {
      return program;
    }
    SubgroupStatements rewriter = new SubgroupStatements(program);
    List<Stmt> body = rewriter.statements(program.body());
    List<Local> locals = new ArrayList<>(program.locals());
    locals.addAll(rewriter.added);
    return new Program(
        program.name(),
        program.workgroup(),
        program.arms(),
        program.boundsChecks(),
        program.buffers(),
        program.shared(),
        program.privates(),
        program.scalars(),
        List.copyOf(locals),
        body,
        program.elementsPerInvocation(),
        program.launchBounds(),
        program.split(),
        program.aliasConflicts());
  }

  private List<Stmt> statements(List<Stmt> body) {
    List<Stmt> out = new ArrayList<>();
    for (Stmt statement : body) {
      statement(statement, out);
    }
    return out;
  }

  private void statement(Stmt statement, List<Stmt> out) {
    switch (statement) {
      case Stmt.Assign assign ->
          out.add(new Stmt.Assign(assign.local(), flat(assign.value(), out)));
      case Stmt.Store store -> {
        List<Expr> parts = flat(List.of(store.index(), store.value()), out);
        out.add(new Stmt.Store(store.array(), parts.get(0), parts.get(1), store.site()));
      }
      case Stmt.Copy copy -> {
        List<Expr> parts = flat(List.of(copy.sourceIndex(), copy.targetIndex()), out);
        out.add(
            new Stmt.Copy(
                copy.source(),
                parts.get(0),
                copy.target(),
                parts.get(1),
                copy.length(),
                copy.site()));
      }
      case Stmt.Atomic atomic -> {
        List<Expr> operands = new ArrayList<>(List.of(atomic.index(), atomic.value()));
        if (atomic.expected() != null) {
          operands.add(atomic.expected());
        }
        List<Expr> parts = flat(operands, out);
        out.add(
            new Stmt.Atomic(
                atomic.result(),
                atomic.op(),
                atomic.array(),
                parts.get(0),
                parts.get(1),
                atomic.expected() == null ? null : parts.get(2),
                atomic.site()));
      }
      case Stmt.If branch ->
          out.add(
              new Stmt.If(
                  flat(branch.condition(), out),
                  statements(branch.then()),
                  statements(branch.otherwise())));
      case Stmt.Loop loop -> {
        if (contains(loop.condition())) {
          throw new Unsupported("a subgroup operation in a loop's condition");
        }
        out.add(
            new Stmt.Loop(
                loop.condition(),
                loop.testFirst(),
                statements(loop.body()),
                statements(loop.update()),
                loop.label(),
                loop.site()));
      }
      case Stmt.Switch choice ->
          out.add(
              new Stmt.Switch(
                  flat(choice.selector(), out),
                  choice.cases().stream()
                      .map(c -> new Stmt.Case(c.labels(), c.isDefault(), statements(c.body())))
                      .toList()));
      case Stmt.Call call -> throw call.unlinked();
      case Stmt.VectorLoad load -> throw new Unsupported("a vectorized program");
      case Stmt.Matrix matrix -> throw new Unsupported(Unsupported.MATRICES);
      case Stmt.VectorStore store -> throw new Unsupported("a vectorized program");
      case Stmt.ClearArray clear -> out.add(clear);
      case Stmt.DeclareShared declare -> out.add(declare);
      case Stmt.Barrier barrier -> out.add(barrier);
      case Stmt.Break jump -> out.add(jump);
      case Stmt.Continue jump -> out.add(jump);
      case Stmt.Return ret -> out.add(ret);
    }
  }

  /**
   * {@code expression} without subgroup operations, the statements it needs first appended to
   * {@code out}.
   */
  private Expr flat(Expr expression, List<Stmt> out) {
    if (!contains(expression)) {
      return expression;
    }
    return switch (expression) {
      case Expr.Call call when isExchange(call) -> {
        List<Expr> operands =
            new ArrayList<>(); // the value in a local; a lane, mask, delta or size may stay a
        // constant
        List<Expr> flat = flat(call.arguments(), out);
        for (int i = 0; i < flat.size(); i++) {
          operands.add(
              i > 0 && flat.get(i) instanceof Expr.IntConst
                  ? flat.get(i)
                  : inLocal(flat.get(i), out));
        }
        Local result = fresh(call.type());
        out.add(new Stmt.Assign(result, new Expr.Call(call.function(), operands)));
        yield new Expr.LocalGet(result);
      }
      case Expr.Call call -> new Expr.Call(call.function(), flat(call.arguments(), out));
      case Expr.Binary binary -> {
        List<Expr> sides = flat(List.of(binary.left(), binary.right()), out);
        yield new Expr.Binary(
            binary.op(), sides.get(0), sides.get(1), binary.type(), binary.site());
      }
      case Expr.Unary unary -> new Expr.Unary(unary.op(), flat(unary.operand(), out));
      case Expr.Convert convert -> new Expr.Convert(convert.type(), flat(convert.value(), out));
      case Expr.Load load -> new Expr.Load(load.array(), flat(load.index(), out), load.site());
      case Expr.Let let -> {
        out.add(new Stmt.Assign(let.local(), flat(let.value(), out)));
        added.add(let.local());
        yield flat(let.body(), out);
      }
      case Expr.Effect effect -> {
        out.addAll(statements(effect.statements()));
        yield flat(effect.value(), out);
      }
      case Expr.Conditional conditional -> {
        if (contains(conditional.then()) || contains(conditional.otherwise())) {
          throw new Unsupported("a subgroup operation on one side of ?:, && or ||");
        }
        yield new Expr.Conditional(
            flat(conditional.condition(), out), conditional.then(), conditional.otherwise());
      }
      default ->
          throw new Unsupported(
              "a subgroup operation inside " + expression.getClass().getSimpleName());
    };
  }

  /**
   * The parts, in Java's order, without subgroup operations: those left of the last part that has
   * one are evaluated into locals first, so that they still run before it.
   */
  private List<Expr> flat(List<Expr> parts, List<Stmt> out) {
    int last = -1;
    for (int i = 0; i < parts.size(); i++) {
      if (contains(parts.get(i))) {
        last = i;
      }
    }
    List<Expr> flat = new ArrayList<>(parts.size());
    for (int i = 0; i < parts.size(); i++) {
      Expr part = parts.get(i);
      flat.add(
          i < last && !part.isConstant()
              ? copy(flat(part, out), out)
              : i <= last ? flat(part, out) : part);
    }
    return flat;
  }

  /**
   * {@code value} as a local: itself if it is one (read right before the operation that takes it).
   */
  private Expr inLocal(Expr value, List<Stmt> out) {
    return value instanceof Expr.LocalGet ? value : copy(value, out);
  }

  /** {@code value} evaluated now into a fresh local, which later statements cannot change. */
  private Expr copy(Expr value, List<Stmt> out) {
    Local local = fresh(value.type());
    out.add(new Stmt.Assign(local, value));
    return new Expr.LocalGet(local);
  }

  private Local fresh(dev.kiln.processor.ir.PrimType type) {
    Local local = new Local("lane$" + nextId, type, nextId++);
    added.add(local);
    return local;
  }

  private static boolean contains(Expr expression) {
    return Walk.anyIn(expression, SubgroupStatements::isExchange);
  }
}
