package dev.kiln.processor.lower;

import dev.kiln.processor.diag.Diagnostic;
import dev.kiln.processor.diag.ErrorSink;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.FixedArray;
import dev.kiln.processor.ir.Label;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Rewriter;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Replaces each {@link Stmt.Call} of a lowered kernel by a fresh copy of its helper's template
 * ({@link HelperTemplates}): the scalar arguments assigned to copies of the parameters' locals, in
 * order, then the body with the caller's arrays for the helper's, its value going to the call's
 * result. Calls inside a copied body are linked the same way; a helper that is already being linked
 * is recursion, an error at the call. The result is the program lowering would have made had javac
 * held every class's trees at once.
 */
public final class HelperLinker {
  private final HelperTemplates templates;
  private final ErrorSink errors;
  private final Sites sites;

  public HelperLinker(HelperTemplates templates, ErrorSink errors, Sites sites) {
    this.templates = templates;
    this.errors = errors;
    this.sites = sites;
  }

  /**
   * A program with its calls linked, and whether linking failed: a helper had errors, or a call
   * could not be linked. Either way the errors are reported; a failed program is good for checks.
   *
   * @param program the program
   * @param failed whether linking failed
   */
  public record Linked(Program program, boolean failed) {}

  /**
   * The top-level class, not analyzed yet, of a helper that {@code program} calls, directly or
   * through other helpers; empty once every one it calls has been, and it can be linked.
   */
  public Optional<String> waitingFor(Program program) {
    Set<String> seen = new HashSet<>();
    Deque<List<Stmt>> bodies = new ArrayDeque<>(List.of(program.body()));
    while (!bodies.isEmpty()) {
      List<Stmt.Call> calls = new ArrayList<>();
      Walk.statements(
          bodies.pop(),
          statement -> {
            if (statement instanceof Stmt.Call call) {
              calls.add(call);
            }
          });
      for (Stmt.Call call : calls) {
        if (!templates.analyzed(call.owner())) {
          return Optional.of(call.owner());
        }
        if (seen.add(call.helper())) {
          templates.find(call.helper()).ifPresent(template -> bodies.push(template.body()));
        }
      }
    }
    return Optional.empty();
  }

  /** {@code program} with every call linked. */
  public Linked link(Program program) {
    if (!Walk.anyStatement(program.body(), statement -> statement instanceof Stmt.Call)) {
      return new Linked(program, false);
    }
    Expansion expansion = new Expansion();
    List<Stmt> body = expansion.statements(program.body());
    List<Local> locals = new ArrayList<>(program.locals());
    locals.addAll(expansion.locals);
    List<PrivateArray> privates = new ArrayList<>(program.privates());
    privates.addAll(expansion.privates);
    List<SharedArray> shared = new ArrayList<>(program.shared());
    shared.addAll(expansion.shared);
    return new Linked(
        new Program(
            program.name(),
            program.workgroup(),
            program.arms(),
            program.boundsChecks(),
            program.buffers(),
            shared,
            privates,
            program.scalars(),
            locals,
            body,
            program.elementsPerInvocation(),
            program.launchBounds(),
            program.split(),
            program.aliasConflicts()),
        expansion.failed);
  }

  /** Links the calls of a body: every other node is rebuilt as it is. */
  private final class Expansion extends Rewriter {
    /** The helpers being linked, innermost first. */
    private final Deque<String> linking = new ArrayDeque<>();

    private final List<Local> locals = new ArrayList<>();
    private final List<PrivateArray> privates = new ArrayList<>();
    private final List<SharedArray> shared = new ArrayList<>();
    private boolean failed;

    @Override
    public List<Stmt> statement(Stmt statement) {
      if (!(statement instanceof Stmt.Call call)) {
        return super.statement(statement);
      }
      List<Expr> arguments =
          call.arguments().stream().map(this::expression).toList(); // they may call helpers too
      Optional<HelperTemplate> found = templates.linked(call.helper(), errors);
      if (found.isEmpty()) {
        return fail(
            call.site(),
            Errors.internal(
                "the call of " + call.helper(),
                "javac analyzed " + call.owner() + " but Kiln has no lowered helper for it"));
      }
      HelperTemplate template = found.get();
      if (linking.contains(template.key())) {
        return fail(
            call.site(),
            Errors.helperRecursion(template.name().substring(template.name().indexOf('.') + 1)));
      }
      failed |= template.failed();
      Copy copy = new Copy(template, call);
      List<Stmt> linked = new ArrayList<>();
      for (int i = 0; i < arguments.size(); i++) {
        linked.add(new Stmt.Assign(copy.local(template.parameters().get(i)), arguments.get(i)));
      }
      List<Stmt> body = copy.statements(template.body());
      linking.push(template.key());
      try {
        linked.addAll(statements(body));
      } finally {
        linking.pop();
      }
      return linked;
    }

    private List<Stmt> fail(Site site, Diagnostic diagnostic) {
      errors.error(sites.tree(site), sites.unit(site), diagnostic);
      failed = true;
      return List.of();
    }

    /**
     * One call's copy of a template: fresh locals, labels, private and workgroup arrays, the
     * caller's arrays.
     */
    private final class Copy extends Rewriter {
      private final HelperTemplate template;
      private final Stmt.Call call;
      private final Map<Local, Local> localCopies = new HashMap<>();
      private final Map<Label, Label> labelCopies = new HashMap<>();
      private final Map<PrivateArray, PrivateArray> arrayCopies = new HashMap<>();
      private final Map<SharedArray, SharedArray> sharedCopies = new HashMap<>();

      Copy(HelperTemplate template, Stmt.Call call) {
        this.template = template;
        this.call = call;
      }

      @Override
      protected Local local(Local local) {
        if (local.equals(template.result()) && call.result() != null) {
          return call.result();
        }
        return localCopies.computeIfAbsent(
            local,
            original -> {
              Local copy = Local.fresh(original.name(), original.type());
              locals.add(copy);
              return copy;
            });
      }

      @Override
      protected Label label(Label label) {
        return labelCopies.computeIfAbsent(label, original -> new Label(original.name()));
      }

      @Override
      protected ArrayDecl array(ArrayDecl array) {
        int parameter = template.arrays().indexOf(array);
        if (parameter >= 0) {
          return call.arrays().get(parameter);
        }
        if (array instanceof PrivateArray own && template.privates().contains(own)) {
          PrivateArray copied = arrayCopies.get(own);
          if (copied == null) {
            copied =
                new PrivateArray(
                    own.name() + "$" + privates.size(),
                    own.element(),
                    expression(own.length()),
                    own.site());
            arrayCopies.put(own, copied);
            privates.add(copied);
          }
          return copied;
        }
        if (array instanceof SharedArray own && template.shared().contains(own)) {
          SharedArray copied = sharedCopies.get(own);
          if (copied == null) { // "$h": no name the kernel's own scope gives (name$2, name$3 ...)
            copied =
                new SharedArray(
                    own.name() + "$h" + shared.size(),
                    own.element(),
                    expression(own.length()),
                    own.site(),
                    own.packed());
            sharedCopies.put(own, copied);
            shared.add(copied);
          }
          return copied;
        }
        return array;
      }

      @Override
      public List<Stmt> statement(Stmt statement) {
        if (statement instanceof Stmt.Atomic atomic
            && array(atomic.array()) instanceof PrivateArray) {
          return fail(atomic.site(), Errors.atomicTarget(atomic.op().intrinsic()));
        }
        return super.statement(statement);
      }

      @Override
      public Expr expression(Expr expression) {
        // the length of an array parameter: the caller's array may be a shared or private one
        if (expression instanceof Expr.Length(BufferDecl buffer)
            && array(buffer) instanceof FixedArray fixed) {
          return fixed.length();
        }
        return super.expression(expression);
      }
    }
  }
}
