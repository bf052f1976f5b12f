package dev.kiln.processor.pass;

import dev.kiln.processor.analysis.Analysis;
import dev.kiln.processor.analysis.Facts;
import dev.kiln.processor.analysis.IndexForm;
import dev.kiln.processor.analysis.IndexForms;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Label;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Rewriter;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lets each invocation of an elementwise program handle 4 consecutive elements (2 where it accesses
 * a long or double buffer) with vector loads and stores of 16 bytes (8 for floats and ints beside
 * doubles): measured on an H200, one 16-byte vector per invocation per buffer is what coalesces
 * best (docs/PERFORMANCE.md). A program qualifies when it is one-dimensional and every buffer
 * access is at exactly {@code Gpu.globalId(0)} (so element e is touched by its own invocation
 * only), with no barriers, workgroup memory, atomics, subgroups, or other ids.
 *
 * <p>Invocation v handles elements {@code 4v … 4v+3} (or {@code 2v, 2v+1}), the gated body run once
 * per element in element order (as Java runs the invocations of one element after another, each
 * element's work is independent of the others'). Where all four elements lie inside every arm's
 * grid and every accessed buffer, the elements' values move through 16-byte loads and stores, and
 * no bounds check can fail; elsewhere (the tail) each element runs the scalar body with its checks
 * and faults.
 */
public final class Vectorize {
  /** Elements per invocation of a vectorized program whose buffers hold 4-byte elements. */
  static final int LANES = 4;

  /** Elements per invocation where some accessed buffer holds 8-byte elements. */
  static final int WIDE_LANES = 2;

  /** The program, vectorized or kept, and why not where it was kept. */
  public sealed interface Decision {
    Program program();

    record Vectorized(Program program) implements Decision {}

    record Kept(Program program, String reason) implements Decision {}
  }

  private static final IndexForm GLOBAL_X =
      new IndexForm.Affine(Map.of(new IndexForm.Id(Builtin.GLOBAL_ID, 0), 1), 0);

  private final Program program;
  private final Facts facts;
  private final IndexForms forms;
  private final List<Local> newLocals = new ArrayList<>();

  /** The accessed buffers, in binding order, with each lane's local for the element. */
  private final Map<BufferDecl, List<Local>> lanes = new LinkedHashMap<>();

  /** Elements per invocation: {@link #LANES}, or {@link #WIDE_LANES} with an 8-byte buffer. */
  private int elements = LANES;

  private Vectorize(Analysis analysis) {
    this.program = analysis.program();
    this.facts = analysis.facts();
    this.forms = analysis.forms();
  }

  /**
   * A gated kernel or fused group before labelled jumps are lowered, vectorized if it qualifies.
   *
   * @param gated the program, with its analyses
   * @return the program, and whether and why it was vectorized
   */
  public static Decision apply(Analysis gated) {
    Vectorize pass = new Vectorize(gated);
    String obstacle = pass.obstacle();
    return obstacle == null
        ? new Decision.Vectorized(pass.vectorized())
        : new Decision.Kept(gated.program(), obstacle);
  }

  /** Why the program cannot be vectorized, or null. */
  private String obstacle() {
    if (program.workgroup().y() != 1 || program.workgroup().z() != 1) {
      return "its workgroup is not one-dimensional";
    }
    if (facts.barriers()) {
      return "it waits at barriers";
    }
    if (facts.workgroupMemory()) {
      return "it uses workgroup memory";
    }
    if (facts.atomics()) {
      return "it updates buffers atomically";
    }
    if (facts.subgroups()) {
      return "it uses subgroup operations";
    }
    if (facts.copies()) {
      return "it copies ranges of arrays (System.arraycopy)";
    }
    if (Walk.anyExpression(program.body(), Expr.Effect.class::isInstance)) {
      return "it assigns inside expressions";
    }
    if (Walk.anyExpression(
        program.body(),
        e ->
            e instanceof Expr.BuiltinGet get
                    && (get.builtin() != Builtin.GLOBAL_ID || get.axis() != 0)
                || e instanceof Expr.ArmWorkgroups)) {
      return "it reads ids other than Gpu.globalId(0), or Gpu.numWorkgroups";
    }
    for (BufferDecl buffer : program.buffers()) {
      if ((buffer.element().isNarrow() || buffer.element() == PrimType.BOOLEAN)
          && !facts.accessesOf(buffer.name()).isEmpty()) {
        return "buffer '"
            + buffer.name()
            + "' holds "
            + buffer.element().javaName()
            + " values, stored in 8 or 16 bits";
      }
    }
    elements =
        program.buffers().stream()
                .anyMatch(b -> b.element().bytes() == 8 && !facts.accessesOf(b.name()).isEmpty())
            ? WIDE_LANES
            : LANES;
    for (BufferDecl buffer : program.buffers()) {
      for (Facts.Access access : facts.accessesOf(buffer.name())) {
        IndexForm form = forms.form(access.index());
        if (!form.equals(GLOBAL_X)) {
          return "buffer '"
              + buffer.name()
              + "' is indexed at "
              + form
              + " (line "
              + access.site().line()
              + "), not at Gpu.globalId(0)";
        }
      }
      if (!facts.accessesOf(buffer.name()).isEmpty()) {
        List<Local> locals = new ArrayList<>();
        for (int k = 0; k < elements; k++) {
          locals.add(fresh(buffer.name() + k, buffer.element()));
        }
        lanes.put(buffer, locals);
      }
    }
    return lanes.isEmpty() ? "it accesses no buffer" : null;
  }

  private Local fresh(String name, PrimType type) {
    Local local = Local.fresh(name, type);
    newLocals.add(local);
    return local;
  }

  private Program vectorized() {
    Expr vector = new Expr.BuiltinGet(Builtin.GLOBAL_ID, 0);
    List<Local> indices = new ArrayList<>();
    List<Stmt> body = new ArrayList<>();
    for (int k = 0; k < elements; k++) {
      Local element = fresh("element" + k, PrimType.INT);
      indices.add(element);
      body.add(
          new Stmt.Assign(
              element,
              new Expr.Binary(
                  BinaryOp.ADD,
                  new Expr.Binary(BinaryOp.MUL, vector, new Expr.IntConst(elements)),
                  new Expr.IntConst(k))));
    }
    List<Stmt> full = new ArrayList<>();
    List<List<Stmt>> fullLanes = new ArrayList<>();
    for (int k = 0; k < elements; k++) {
      fullLanes.add(lane(k, indices.get(k), true));
    }
    lanes.forEach(
        (buffer, locals) -> {
          boolean read =
              facts.accessesOf(buffer.name()).stream().anyMatch(a -> a.kind() == Facts.Kind.READ);
          boolean written =
              facts.accessesOf(buffer.name()).stream().anyMatch(a -> a.kind().writes());
          boolean everyLaneWrites = written;
          for (int k = 0; k < elements; k++) {
            everyLaneWrites &= definitelyAssigned(fullLanes.get(k), locals.get(k));
          }
          if (read || !everyLaneWrites) {
            full.add(new Stmt.VectorLoad(buffer, vector, locals));
          }
        });
    fullLanes.forEach(full::addAll);
    lanes.forEach(
        (buffer, locals) -> {
          if (facts.accessesOf(buffer.name()).stream().anyMatch(a -> a.kind().writes())) {
            full.add(
                new Stmt.VectorStore(
                    buffer,
                    vector,
                    locals.stream().map(l -> (Expr) new Expr.LocalGet(l)).toList()));
          }
        });
    List<Stmt> tail = new ArrayList<>();
    for (int k = 0; k < elements; k++) {
      tail.addAll(lane(k, indices.get(k), false));
    }
    body.add(new Stmt.If(allElementsInside(vector), full, tail));
    List<Local> locals = new ArrayList<>(program.locals());
    locals.addAll(newLocals);
    return program.withBody(locals, body, elements);
  }

  /**
   * Whether the invocation's elements ({@code 4v … 4v+3}, or {@code 2v, 2v+1}) lie inside every
   * arm's grid and every accessed buffer: {@code v < count >>> 2} (or {@code >>> 1}) for each,
   * which cannot overflow, and the invocation inside the grids' other axes.
   */
  private Expr allElementsInside(Expr vector) {
    Expr inside = new Expr.BoolConst(true);
    for (int arm = 0; arm < program.arms(); arm++) {
      inside = and(inside, below(vector, new Expr.LaunchCount(arm, 0)));
      inside = and(inside, otherAxesInside(arm));
    }
    for (BufferDecl buffer : lanes.keySet()) {
      inside = and(inside, below(vector, new Expr.Length(buffer)));
    }
    return inside;
  }

  private Expr below(Expr vector, Expr count) {
    int shift = Integer.numberOfTrailingZeros(elements);
    return new Expr.Binary(
        BinaryOp.LT, vector, new Expr.Binary(BinaryOp.USHR, count, new Expr.IntConst(shift)));
  }

  private static Expr otherAxesInside(int arm) {
    return and(
        new Expr.Binary(
            BinaryOp.LT, new Expr.BuiltinGet(Builtin.GLOBAL_ID, 1), new Expr.LaunchCount(arm, 1)),
        new Expr.Binary(
            BinaryOp.LT, new Expr.BuiltinGet(Builtin.GLOBAL_ID, 2), new Expr.LaunchCount(arm, 2)));
  }

  /** {@code a & b}: both sides are cheap and have no effects, so no branch is needed. */
  private static Expr and(Expr a, Expr b) {
    if (a instanceof Expr.BoolConst(boolean value) && value) {
      return b;
    }
    return new Expr.Binary(BinaryOp.AND, a, b);
  }

  /**
   * The gated body for one element: {@code Gpu.globalId(0)} is the element, a {@code return} ends
   * this element only. With {@code full}, the element's buffer values live in the lane's locals,
   * every gate holds, and comparisons of the element with an accessed buffer's length are known.
   */
  private List<Stmt> lane(int k, Local element, boolean full) {
    Label end = new Label("element" + k + (full ? "" : "Tail"));
    Rewriter rewriter =
        new Rewriter() {
          @Override
          public List<Stmt> statement(Stmt statement) {
            return switch (statement) {
              case Stmt.Return r -> List.of(new Stmt.Break(end));
              case Stmt.Store store when full && store.array() instanceof BufferDecl buffer ->
                  List.of(new Stmt.Assign(laneOf(buffer, k), expression(store.value())));
              default -> super.statement(statement);
            };
          }

          @Override
          public Expr expression(Expr expression) {
            return switch (expression) {
              case Expr.BuiltinGet get when get.builtin() == Builtin.GLOBAL_ID && get.axis() == 0 ->
                  new Expr.LocalGet(element);
              case Expr.InLaunch gate ->
                  full
                      ? new Expr.BoolConst(true)
                      : and(
                          new Expr.Binary(
                              BinaryOp.LT,
                              new Expr.LocalGet(element),
                              new Expr.LaunchCount(gate.arm(), 0)),
                          otherAxesInside(gate.arm()));
              case Expr.Load load when full && load.array() instanceof BufferDecl buffer ->
                  new Expr.LocalGet(laneOf(buffer, k));
              case Expr.Binary binary when full && knownByBounds(binary) != null ->
                  new Expr.BoolConst(knownByBounds(binary));
              case Expr.Conditional conditional when full -> folded(super.expression(conditional));
              default -> super.expression(expression);
            };
          }
        };
    List<Stmt> body = rewriter.statements(program.body());
    if (Walk.anyStatement(program.body(), statement -> statement instanceof Stmt.Return)) {
      return List.of(Stmt.Loop.once(body, end));
    }
    return body;
  }

  /**
   * {@code c ? a : b} with a known {@code c} (as {@code &&} and {@code ||} become once bounds are
   * known): the side taken.
   */
  private static Expr folded(Expr expression) {
    if (expression instanceof Expr.Conditional(Expr condition, Expr then, Expr otherwise)
        && condition instanceof Expr.BoolConst(boolean value)) {
      return value ? then : otherwise;
    }
    return expression;
  }

  private Local laneOf(BufferDecl buffer, int k) {
    return lanes.get(buffer).get(k);
  }

  /**
   * In the full path, {@code element < b.length} holds for every accessed buffer b: the value of
   * such a comparison (either way round), or null for any other expression.
   */
  private Boolean knownByBounds(Expr.Binary binary) {
    if (!binary.op().isComparison()) {
      return null; // and no forms of its sides: taking them at every node of a long sum was
      // quadratic
    }
    if (isElement(binary.left()) && isAccessedLength(binary.right())) { // element op length
      return switch (binary.op()) {
        case LT, LE, NE -> Boolean.TRUE;
        case GT, GE, EQ -> Boolean.FALSE;
        default -> null;
      };
    }
    if (isAccessedLength(binary.left()) && isElement(binary.right())) { // length op element
      return switch (binary.op()) {
        case GT, GE, NE -> Boolean.TRUE;
        case LT, LE, EQ -> Boolean.FALSE;
        default -> null;
      };
    }
    return null;
  }

  private boolean isElement(Expr expression) {
    return expression.type() == PrimType.INT && forms.form(expression).equals(GLOBAL_X);
  }

  private boolean isAccessedLength(Expr expression) {
    if (expression.type() != PrimType.INT) {
      return false;
    }
    IndexForm form = forms.form(expression);
    return lanes.keySet().stream()
        .anyMatch(
            buffer ->
                form.equals(
                    new IndexForm.Affine(Map.of(new IndexForm.Length(buffer.name()), 1), 0)));
  }

  /**
   * Whether every run of {@code body} assigns {@code local} before it could leave: an assignment at
   * the top, or in both branches of an if (a branch of a constant condition counts alone), before
   * any loop, switch or jump.
   */
  private static boolean definitelyAssigned(List<Stmt> body, Local local) {
    for (Stmt statement : body) {
      switch (statement) {
        case Stmt.Assign assign when assign.local().equals(local) -> {
          return true;
        }
        case Stmt.If branch -> {
          boolean then = definitelyAssigned(branch.then(), local);
          boolean otherwise = definitelyAssigned(branch.otherwise(), local);
          if (branch.condition() instanceof Expr.BoolConst(boolean value)
              ? (value ? then : otherwise)
              : then && otherwise) {
            return true;
          }
          if (jumps(branch.then()) || jumps(branch.otherwise())) {
            return false;
          }
        }
        case Stmt.Loop loop -> {
          return false;
        }
        case Stmt.Switch choice -> {
          return false;
        }
        case Stmt.Break jump -> {
          return false;
        }
        case Stmt.Continue jump -> {
          return false;
        }
        case Stmt.Return ret -> {
          return false;
        }
        default -> {}
      }
    }
    return false;
  }

  private static boolean jumps(List<Stmt> body) {
    return Walk.anyStatement(
        body,
        s -> s instanceof Stmt.Break || s instanceof Stmt.Continue || s instanceof Stmt.Return);
  }
}
