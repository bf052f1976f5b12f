package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.TreePaths.child;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.BreakTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ContinueTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.processor.diag.ErrorSink;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.diag.KernelError;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Fragment;
import dev.kiln.processor.ir.Label;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.ScalarParam;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import dev.kiln.processor.ir.Workgroup;
import dev.kiln.processor.model.KernelSignature;
import dev.kiln.processor.model.SignatureReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.TypeMirror;

/**
 * Lowers one attributed kernel method to a {@link Program}. Errors are reported per statement, so
 * one build shows every unsupported construct of the kernel.
 */
public final class KernelLowering {
  private final Trees trees;
  private final CompilationUnitTree unit;
  private final ErrorSink errors;
  private final KernelSignature signature;
  private final Scope scope;
  private final ExpressionLowering expressions;
  private final CallLowering calls;
  private final MatrixLowering matrices;
  private final HelperInlining helpers;
  private final Switches switches;
  private final ExpressionStatements effects;
  private final Loops loops;
  private final LocalArrays arrays;
  private final BufferAliases aliases;
  private final Jumps jumps;
  private boolean failed;

  /** Where a {@code return} in each helper being inlined goes: innermost first. */
  private final Deque<Exit> exits = new ArrayDeque<>();

  /**
   * @param errors where the errors go
   * @param attribution which classes javac compiles from source (helpers of other classes)
   */
  public KernelLowering(
      Trees trees,
      CompilationUnitTree unit,
      ErrorSink errors,
      KernelSignature signature,
      Sites sites,
      Attribution attribution) {
    this.trees = trees;
    this.unit = unit;
    this.errors = errors;
    this.signature = signature;
    this.scope = new Scope(signature, unit);
    EmbeddedStatements embedded =
        new EmbeddedStatements() {
          @Override
          public List<Stmt> helper(TreePath call, ExecutableElement helper, Local result) {
            return inlineHelper(call, helper, result);
          }

          @Override
          public List<Stmt> switchExpression(
              TreePath path, com.sun.source.tree.SwitchExpressionTree tree, Local result) {
            return switches.into(path, tree, result);
          }
        };
    this.expressions =
        new ExpressionLowering(trees, scope, signature.method(), sites, attribution, embedded);
    this.calls = expressions.calls();
    this.helpers = expressions.helpers();
    this.matrices = new MatrixLowering(trees, scope, expressions, calls);
    Statements statements =
        new Statements() {
          @Override
          public List<Stmt> statement(TreePath path) {
            return KernelLowering.this.statement(path);
          }

          @Override
          public List<Stmt> block(TreePath parent, List<? extends StatementTree> statements) {
            return KernelLowering.this.block(parent, statements);
          }

          @Override
          public List<Stmt> effect(TreePath path) {
            return effects.effect(path);
          }
        };
    this.switches = new Switches(expressions, statements);
    this.aliases = new BufferAliases(trees, scope, expressions);
    this.effects =
        new ExpressionStatements(
            trees, scope, expressions, calls, helpers, matrices, switches, embedded, aliases);
    this.loops = new Loops(trees, scope, expressions, statements);
    this.arrays = new LocalArrays(scope, expressions, calls, aliases);
    this.jumps = new Jumps(statements);
  }

  /**
   * The program. Where a statement could not be lowered its error has been reported and {@link
   * #failed()} is true: the program then lacks that statement, and is good for checks (which find a
   * subset of the errors of the whole) but not for passes.
   */
  public Program lower(TreePath methodPath) {
    MethodTree method = (MethodTree) methodPath.getLeaf();
    List<Stmt> body = new ArrayList<>(shadowAssignedScalars(method));
    body.addAll(block(child(methodPath, method.getBody()), method.getBody().getStatements()));
    return new Program(
        signature.name(),
        signature.workgroup(),
        1,
        signature.boundsChecks(),
        scope.buffers(),
        scope.sharedArrays(),
        scope.privateArrays(),
        scope.scalars(),
        scope.locals(),
        body);
  }

  /**
   * The lowering of {@code helper}, a static method of a class javac has just analyzed, as a
   * template for the kernels of other classes that call it ({@link #template}): its array
   * parameters stand as buffers, in their order, which linking replaces by the caller's arrays.
   */
  static KernelLowering ofHelper(
      Trees trees,
      ErrorSink errors,
      ExecutableElement helper,
      Sites sites,
      Attribution attribution) {
    List<KernelSignature.Param> arrays = new ArrayList<>();
    for (VariableElement parameter : helper.getParameters()) {
      if (parameter.asType() instanceof ArrayType array) {
        arrays.add(
            new KernelSignature.Param(
                parameter.getSimpleName().toString(),
                SignatureReader.primType(array.getComponentType()).orElseThrow(),
                true,
                Optional.empty()));
      }
    }
    TypeElement owner = (TypeElement) helper.getEnclosingElement();
    KernelSignature signature =
        new KernelSignature(
            owner,
            "",
            owner.getSimpleName().toString(),
            helper,
            new Workgroup(1, 1, 1),
            true,
            false,
            false,
            arrays,
            List.of());
    return new KernelLowering(
        trees, trees.getPath(helper).getCompilationUnit(), errors, signature, sites, attribution);
  }

  /**
   * The helper this lowering was made for ({@link #ofHelper}) as a template: its scalar parameters
   * are locals the caller sets, its returns leave a run-once block with the value in a result local
   * (no block where the only return ends the body: {@code return e;} is the assignment). Errors go
   * to this lowering's sink, and {@link #failed()} says whether there were any.
   */
  HelperTemplate template(String key) {
    ExecutableElement helper = signature.method();
    TreePath path = trees.getPath(helper);
    MethodTree method = (MethodTree) path.getLeaf();
    scope.enterHelper(helper, unit); // a call of itself is recursion
    List<Local> parameters = new ArrayList<>();
    for (VariableElement parameter : helper.getParameters()) {
      if (!(parameter.asType() instanceof ArrayType)) {
        parameters.add(
            scope.declare(
                parameter,
                parameter.getSimpleName().toString(),
                SignatureReader.primType(parameter.asType()).orElseThrow()));
      }
    }
    Local result =
        helper.getReturnType().getKind() == javax.lang.model.type.TypeKind.VOID
            ? null
            : scope.temporary(
                helper.getSimpleName() + "Result",
                SignatureReader.primType(helper.getReturnType()).orElseThrow());
    Label label = new Label("return$" + helper.getSimpleName());
    exits.push(new Exit(label, result));
    List<Stmt> body;
    try {
      body = block(child(path, method.getBody()), method.getBody().getStatements());
    } finally {
      exits.pop();
    }
    List<Stmt> template = exitBlock(body, label);
    return new HelperTemplate(
        key,
        signature.flatName() + "." + helper.getSimpleName(),
        parameters,
        scope.buffers(),
        result,
        template,
        scope.locals(),
        scope.privateArrays(),
        scope.sharedArrays(),
        failed);
  }

  /** Whether some statement could not be lowered (and its error was reported). */
  public boolean failed() {
    return failed;
  }

  /**
   * Java lets a method assign its parameters; push constants cannot be written, so each scalar
   * parameter the body assigns becomes a local initialized from the push constant.
   */
  private List<Stmt> shadowAssignedScalars(MethodTree method) {
    Set<Element> assigned = AssignedVariables.in(trees, unit, method);
    List<Stmt> copies = new ArrayList<>();
    for (VariableTree parameter : method.getParameters()) {
      Element element = trees.getElement(TreePath.getPath(unit, parameter));
      Optional<ScalarParam> scalar = scope.scalar(parameter.getName().toString());
      if (assigned.contains(element) && scalar.isPresent()) {
        Local local = scope.declare(element, scalar.get().name(), scalar.get().type());
        copies.add(new Stmt.Assign(local, new Expr.ScalarGet(scalar.get())));
      }
    }
    return copies;
  }

  private void report(KernelError error) {
    failed = true;
    for (Object arg : error.diagnostic().args()) {
      if (arg instanceof javax.lang.model.type.TypeMirror type
          && type.getKind() == javax.lang.model.type.TypeKind.ERROR) {
        return; // a type javac could not resolve: javac reported it
      }
    }
    errors.error(error.tree(), error.unit().orElse(scope.unit()), error.diagnostic());
    error.inner().forEach(this::report);
  }

  private List<Stmt> block(TreePath parent, List<? extends StatementTree> statements) {
    List<Stmt> lowered = new ArrayList<>();
    for (StatementTree statement : statements) {
      try {
        lowered.addAll(statement(child(parent, statement)));
      } catch (KernelError error) {
        report(error);
      } catch (AlreadyReported reported) {
        failed = true;
      }
    }
    return lowered;
  }

  private List<Stmt> statement(TreePath path) {
    Tree tree = path.getLeaf();
    return switch (tree.getKind()) {
      case BLOCK -> block(path, ((BlockTree) tree).getStatements());
      case EMPTY_STATEMENT -> List.of();
      case VARIABLE -> declare(path, (VariableTree) tree);
      case EXPRESSION_STATEMENT ->
          effects.effect(child(path, ((ExpressionStatementTree) tree).getExpression()));
      case IF -> {
        IfTree branch = (IfTree) tree;
        Expr condition = expressions.expr(child(path, branch.getCondition()));
        var before = aliases.state();
        List<Stmt> then = statement(child(path, branch.getThenStatement()));
        var afterThen = aliases.state();
        aliases.restore(before);
        List<Stmt> otherwise =
            branch.getElseStatement() == null
                ? List.of()
                : statement(child(path, branch.getElseStatement()));
        aliases.join(afterThen);
        // a condition known here (a helper's constant argument) keeps only its branch, still as a
        // branch (one that returns or jumps must end a block); both were lowered, so that either
        // one's errors are reported
        yield List.of(
            ConstantBranches.truth(condition)
                .map(
                    known ->
                        new Stmt.If(new Expr.BoolConst(true), known ? then : otherwise, List.of()))
                .orElseGet(() -> new Stmt.If(condition, then, otherwise)));
      }
      case FOR_LOOP, ENHANCED_FOR_LOOP, WHILE_LOOP, DO_WHILE_LOOP, SWITCH, LABELED_STATEMENT -> {
        aliases.widenAssignedIn(path); // a turn or a jump may come back with any of them
        List<Stmt> lowered = branching(path, tree);
        aliases.widenAssignedIn(path);
        yield lowered;
      }
      case ASSERT -> List.of(); // Java runs without -ea unless told: its asserts are not evaluated
      // (docs/KERNELS.md)
      case YIELD -> switches.yieldValue(path);
      case BREAK ->
          List.of(new Stmt.Break(jumps.target(path, ((BreakTree) tree).getLabel(), true)));
      case CONTINUE ->
          List.of(new Stmt.Continue(jumps.target(path, ((ContinueTree) tree).getLabel(), false)));
      case RETURN -> {
        ExpressionTree value = ((ReturnTree) tree).getExpression();
        if (!exits.isEmpty()) {
          Exit exit = exits.getFirst();
          yield value == null || exit.result() == null
              ? List.of(new Stmt.Break(exit.label()))
              : List.of(
                  new Stmt.Assign(
                      exit.result(), expressions.expr(child(path, value), exit.result().type())),
                  new Stmt.Break(exit.label()));
        }
        if (value != null) {
          throw new KernelError(value, Errors.unsupportedReturnValue());
        }
        yield List.of(new Stmt.Return());
      }
      default -> throw new KernelError(tree, Errors.unsupportedStatement(describeStatement(tree)));
    };
  }

  /** A loop, switch or labelled statement. */
  private List<Stmt> branching(TreePath path, Tree tree) {
    return switch (tree.getKind()) {
      case FOR_LOOP -> loops.forLoop(path, (ForLoopTree) tree);
      case ENHANCED_FOR_LOOP -> loops.forEach(path, (com.sun.source.tree.EnhancedForLoopTree) tree);
      case WHILE_LOOP -> {
        WhileLoopTree loop = (WhileLoopTree) tree;
        yield List.of(
            new Stmt.Loop(
                expressions.expr(child(path, loop.getCondition())),
                true,
                statement(child(path, loop.getStatement())),
                List.of(),
                expressions.site(tree)));
      }
      case DO_WHILE_LOOP -> {
        DoWhileLoopTree loop = (DoWhileLoopTree) tree;
        yield List.of(
            new Stmt.Loop(
                expressions.expr(child(path, loop.getCondition())),
                false,
                statement(child(path, loop.getStatement())),
                List.of(),
                expressions.site(tree)));
      }
      case SWITCH -> List.of(switches.statement(path, (com.sun.source.tree.SwitchTree) tree));
      case LABELED_STATEMENT -> jumps.labelled(path, (LabeledStatementTree) tree);
      default -> throw new IllegalStateException("not a loop, switch or label: " + tree.getKind());
    };
  }

  private List<Stmt> declare(TreePath path, VariableTree variable) {
    VariableElement element = (VariableElement) trees.getElement(path);
    TypeMirror type = element.asType();
    Tree typeTree = hasPosition(variable.getType()) ? variable.getType() : variable;
    if (type instanceof ArrayType array) {
      return arrays.declare(path, variable, element, array);
    }
    Optional<Fragment.Use> use = MatrixTypes.use(type);
    if (use.isPresent()) {
      return matrices.declare(
          element,
          variable.getName().toString(),
          use.get(),
          variable.getInitializer() == null ? null : child(path, variable.getInitializer()),
          variable);
    }
    Optional<PrimType> prim = SignatureReader.primType(type);
    if (prim.isEmpty()) {
      scope.reject(element);
      throw UnsupportedTypes.error(typeTree, type);
    }
    Local local = scope.declare(element, variable.getName().toString(), prim.get());
    if (variable.getInitializer() == null) {
      return List.of();
    }
    return effects.assignLocal(local, child(path, variable.getInitializer()));
  }

  /** A statement's kind for messages: "a try statement". */
  private static String describeStatement(Tree tree) {
    return switch (tree.getKind()) {
      case SYNCHRONIZED -> "a synchronized block";
      default -> "a " + tree.getKind().name().toLowerCase().replace('_', ' ') + " statement";
    };
  }

  /**
   * A helper's body in place of its call, its {@code return} a break out of a labelled loop that
   * runs once (setting {@code result} first, if any), as {@link #exitBlock} makes it.
   */
  private List<Stmt> inlineHelper(TreePath call, ExecutableElement helper, Local result) {
    if (!helpers.inKernelClass(helper)) {
      return helpers.callOtherClass(call, helper, result);
    }
    return helpers.inlineStatements(
        call,
        helper,
        path -> {
          Label label = new Label("return$" + helper.getSimpleName());
          exits.push(new Exit(label, result));
          try {
            MethodTree tree = (MethodTree) path.getLeaf();
            return exitBlock(
                block(child(path, tree.getBody()), tree.getBody().getStatements()), label);
          } finally {
            exits.pop();
          }
        });
  }

  /**
   * A helper's inlined body whose returns break to {@code label}: a return at the end goes nowhere
   * and is dropped; where another remains, the body is a labelled loop that runs once, so that the
   * break leaves it.
   */
  private static List<Stmt> exitBlock(List<Stmt> body, Label label) {
    List<Stmt> kept =
        !body.isEmpty() && body.getLast() instanceof Stmt.Break(Label end) && end == label
            ? body.subList(0, body.size() - 1)
            : body;
    boolean leaves =
        Walk.anyStatement(
            kept, statement -> statement instanceof Stmt.Break(Label end) && end == label);
    return leaves ? List.of(Stmt.Loop.once(kept, label)) : kept;
  }

  private boolean hasPosition(Tree tree) {
    return tree != null && trees.getSourcePositions().getStartPosition(scope.unit(), tree) >= 0;
  }
}
