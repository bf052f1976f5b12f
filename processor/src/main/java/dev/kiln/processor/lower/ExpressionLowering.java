package dev.kiln.processor.lower;

import static dev.kiln.processor.lower.JavaArithmetic.binary;
import static dev.kiln.processor.lower.JavaArithmetic.convert;
import static dev.kiln.processor.lower.TreePaths.child;
import static dev.kiln.processor.lower.TreePaths.describe;
import static dev.kiln.processor.lower.TreePaths.unparenthesized;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.diag.KernelError;
import dev.kiln.processor.ir.BinaryOp;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.UnaryOp;
import dev.kiln.processor.model.SignatureReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.TypeMirror;

/**
 * Lowers attributed expression trees to IR: the root of the expression recursion, which {@link
 * CallLowering} and {@link HelperInlining} come back to for arguments and helper bodies. Types come
 * from javac ({@link Trees#getTypeMirror}); this class only inserts the conversions Java's
 * promotion rules imply.
 */
final class ExpressionLowering implements Expressions {
  private final Trees trees;
  private final Scope scope;
  private final ExecutableElement kernel;
  private final Sites sites;
  private final HelperInlining helpers;
  private final CallLowering calls;
  private final SwitchValues switchValues;
  private final AssignmentExpressions assignments;

  ExpressionLowering(
      Trees trees,
      Scope scope,
      ExecutableElement kernel,
      Sites sites,
      Attribution attribution,
      EmbeddedStatements embedded) {
    this.trees = trees;
    this.scope = scope;
    this.kernel = kernel;
    this.sites = sites;
    this.helpers = new HelperInlining(trees, scope, kernel, attribution, this);
    this.calls = new CallLowering(trees, scope, this, helpers, embedded);
    this.switchValues = new SwitchValues(this, scope, embedded);
    this.assignments = new AssignmentExpressions(this, scope);
  }

  /** The lowering of calls, whose arguments come back here. */
  CallLowering calls() {
    return calls;
  }

  /** The inlining of helpers, whose arguments and bodies come back here. */
  HelperInlining helpers() {
    return helpers;
  }

  /** Whether {@code parameter} is the kernel's own (else a helper's being inlined). */
  private boolean isKernelParameter(Element parameter) {
    return parameter.getEnclosingElement().equals(kernel);
  }

  /** The site of {@code tree}, for IR nodes that may fail or conflict. */
  @Override
  public Site site(Tree tree) {
    CompilationUnitTree unit = scope.unit();
    long position = trees.getSourcePositions().getStartPosition(unit, tree);
    return sites.site(tree, unit, (int) unit.getLineMap().getLineNumber(position));
  }

  /** Lowers the expression at {@code path}. */
  @Override
  public Expr expr(TreePath path) {
    Tree tree = path.getLeaf();
    if (MatrixTypes.use(trees.getTypeMirror(path)).isPresent()) {
      throw new KernelError(
          tree,
          Errors.matrixUse(
              "assigned to a local variable of its type, and passed to the Gpu matrix methods"));
    }
    return switch (tree.getKind()) {
      case PARENTHESIZED -> expr(child(path, ((ParenthesizedTree) tree).getExpression()));
      case ASSIGNMENT,
          PLUS_ASSIGNMENT,
          MINUS_ASSIGNMENT,
          MULTIPLY_ASSIGNMENT,
          DIVIDE_ASSIGNMENT,
          REMAINDER_ASSIGNMENT,
          LEFT_SHIFT_ASSIGNMENT,
          RIGHT_SHIFT_ASSIGNMENT,
          UNSIGNED_RIGHT_SHIFT_ASSIGNMENT,
          AND_ASSIGNMENT,
          OR_ASSIGNMENT,
          XOR_ASSIGNMENT,
          PREFIX_INCREMENT,
          PREFIX_DECREMENT,
          POSTFIX_INCREMENT,
          POSTFIX_DECREMENT ->
          assignments.lower(path);
      case TYPE_CAST -> cast(path, (TypeCastTree) tree);
      case METHOD_INVOCATION -> {
        try {
          calls.mathInDouble(path);
          if (SignatureReader.primType(trees.getTypeMirror(path)).isEmpty()) {
            yield calls.call(
                path); // void or an object: call() names what is wrong with the method rather than
            // its type
          }
          yield typed(path, valueType(path));
        } catch (KernelError error) {
          throw error.tree() == tree ? error.besides(calls.argumentErrors(path)) : error;
        }
      }
      default -> smallConstant(path).orElseGet(() -> typed(path, valueType(path)));
    };
  }

  /**
   * A {@code byte}, {@code short} or {@code char} constant ({@code 'a'}, {@code Short.MAX_VALUE})
   * as the int it promotes to; kernels have no values of those types otherwise.
   */
  private Optional<Expr> smallConstant(TreePath path) {
    TypeMirror type = trees.getTypeMirror(path);
    if (type == null
        || !(type.getKind() == javax.lang.model.type.TypeKind.BYTE
            || type.getKind() == javax.lang.model.type.TypeKind.SHORT
            || type.getKind() == javax.lang.model.type.TypeKind.CHAR)) {
      return Optional.empty();
    }
    Object value =
        path.getLeaf() instanceof LiteralTree literal
            ? literal.getValue()
            : trees.getElement(path) instanceof VariableElement field
                ? field.getConstantValue()
                : null;
    return switch (value) {
      case Character c -> Optional.of(new Expr.IntConst(c));
      case Number number -> Optional.of(new Expr.IntConst(number.intValue()));
      case null, default -> Optional.empty();
    };
  }

  /**
   * The operands of one expression, lowered in order. Where one fails, the others are still
   * lowered, and their errors go out with the first one's, as javac reports every error of an
   * expression in one compile ({@code Math.sin(x) * Math.exp(x)}: both calls).
   */
  @SafeVarargs
  static List<Expr> each(java.util.function.Supplier<Expr>... operands) {
    List<Expr> lowered = new ArrayList<>();
    RuntimeException first = null;
    List<KernelError> others = new ArrayList<>();
    for (java.util.function.Supplier<Expr> operand : operands) {
      try {
        lowered.add(operand.get());
      } catch (KernelError error) {
        if (first == null) {
          first = error;
        } else {
          others.add(error);
        }
      } catch (AlreadyReported reported) { // reported already; the others' errors still go out
        if (first == null) {
          first = reported;
        }
      }
    }
    if (first instanceof KernelError error) {
      throw error.besides(others);
    }
    if (first != null) {
      if (!others.isEmpty()) {
        throw others.getFirst().besides(others.subList(1, others.size()));
      }
      throw first;
    }
    return lowered;
  }

  /** Lowers {@code path} and converts it to {@code type} as Java's assignment conversion does. */
  @Override
  public Expr expr(TreePath path, PrimType type) {
    return convert(expr(path), type);
  }

  private Expr typed(TreePath path, PrimType type) {
    Tree tree = path.getLeaf();
    return switch (tree.getKind()) {
      case INT_LITERAL, LONG_LITERAL, FLOAT_LITERAL, DOUBLE_LITERAL, BOOLEAN_LITERAL ->
          constant(((LiteralTree) tree).getValue(), type);
      case IDENTIFIER -> identifier(path, type);
      case MEMBER_SELECT -> memberSelect(path, type);
      case ARRAY_ACCESS -> load(path);
      case METHOD_INVOCATION -> calls.call(path);
      case UNARY_MINUS -> new Expr.Unary(UnaryOp.NEG, operand(path, type));
      case UNARY_PLUS -> operand(path, type);
      case BITWISE_COMPLEMENT -> new Expr.Unary(UnaryOp.COMPLEMENT, operand(path, type));
      case LOGICAL_COMPLEMENT -> new Expr.Unary(UnaryOp.NOT, operand(path, type));
      case CONDITIONAL_AND -> {
        BinaryTree binary = (BinaryTree) tree;
        yield new Expr.Conditional(
            expr(child(path, binary.getLeftOperand())),
            expr(child(path, binary.getRightOperand())),
            new Expr.BoolConst(false));
      }
      case CONDITIONAL_OR -> {
        BinaryTree binary = (BinaryTree) tree;
        yield new Expr.Conditional(
            expr(child(path, binary.getLeftOperand())),
            new Expr.BoolConst(true),
            expr(child(path, binary.getRightOperand())));
      }
      case SWITCH_EXPRESSION ->
          switchValues.value(path, (com.sun.source.tree.SwitchExpressionTree) tree, type);
      case CONDITIONAL_EXPRESSION -> {
        ConditionalExpressionTree conditional = (ConditionalExpressionTree) tree;
        List<Expr> parts =
            each(
                () -> expr(child(path, conditional.getCondition())),
                () -> expr(child(path, conditional.getTrueExpression()), type),
                () -> expr(child(path, conditional.getFalseExpression()), type));
        yield new Expr.Conditional(parts.get(0), parts.get(1), parts.get(2));
      }
      default -> {
        Optional<BinaryOp> op = BinaryOps.of(tree.getKind());
        if (op.isEmpty()) {
          throw new KernelError(tree, Errors.unsupportedExpression(describe(tree)));
        }
        BinaryTree binary = (BinaryTree) tree;
        List<Expr> operands =
            each(
                () -> expr(child(path, binary.getLeftOperand())),
                () -> expr(child(path, binary.getRightOperand())));
        yield faulting(binary(op.get(), operands.get(0), operands.get(1), type), binary);
      }
    };
  }

  /**
   * {@code lowered}, where it is an integer division or remainder, at the site of {@code tree}, for
   * its fault's line.
   */
  @Override
  public Expr faulting(Expr lowered, Tree tree) {
    return lowered instanceof Expr.Binary binary
            && (binary.op() == BinaryOp.DIV || binary.op() == BinaryOp.REM)
            && (binary.type() == PrimType.INT || binary.type() == PrimType.LONG)
        ? binary.at(site(tree))
        : lowered;
  }

  private Expr operand(TreePath path, PrimType type) {
    return expr(child(path, ((UnaryTree) path.getLeaf()).getExpression()), type);
  }

  /** javac's type of the value at {@code path}, which must be one the kernel language has. */
  @Override
  public PrimType valueType(TreePath path) {
    TypeMirror type = trees.getTypeMirror(path);
    if (type instanceof ArrayType) {
      Tree tree = path.getLeaf();
      String name =
          tree instanceof com.sun.source.tree.IdentifierTree id
              ? id.getName().toString()
              : tree.toString();
      throw new KernelError(tree, Errors.unsupportedArrayUse(name));
    }
    return SignatureReader.primType(type)
        .orElseThrow(() -> UnsupportedTypes.error(path.getLeaf(), type));
  }

  private static Expr constant(Object value, PrimType type) {
    if (value instanceof Character c) {
      return convert(new Expr.IntConst(c), type);
    }
    return switch (type) {
      case INT, BYTE, SHORT, CHAR -> convert(new Expr.IntConst(((Number) value).intValue()), type);
      case LONG -> new Expr.LongConst(((Number) value).longValue());
      case FLOAT -> new Expr.FloatConst(((Number) value).floatValue());
      case DOUBLE -> new Expr.DoubleConst(((Number) value).doubleValue());
      case BOOLEAN -> new Expr.BoolConst((Boolean) value);
    };
  }

  private Expr identifier(TreePath path, PrimType type) {
    Element element = trees.getElement(path);
    Tree tree = path.getLeaf();
    if (scope.isRejected(element)) {
      throw new AlreadyReported();
    }
    if (element.getKind() == ElementKind.LOCAL_VARIABLE
        && ((VariableElement) element).getConstantValue() != null) {
      // a constant variable (JLS 4.12.4: 'final int taps = 4;'): a constant wherever it is read
      return fieldConstant(tree, (VariableElement) element, type);
    }
    return switch (element.getKind()) {
      case LOCAL_VARIABLE, RESOURCE_VARIABLE, BINDING_VARIABLE, EXCEPTION_PARAMETER ->
          new Expr.LocalGet(
              scope
                  .local(element)
                  .orElseThrow(
                      () -> new KernelError(tree, Errors.unsupportedExpression("this variable"))));
      case PARAMETER ->
          scope
              .local(element)
              .<Expr>map(Expr.LocalGet::new)
              .or(
                  () ->
                      isKernelParameter(element)
                          ? scope
                              .scalar(element.getSimpleName().toString())
                              .map(Expr.ScalarGet::new)
                          : scope.argument(element))
              .orElseThrow(
                  () -> new KernelError(tree, Errors.unsupportedArrayUse(element.getSimpleName())));
      case FIELD -> fieldConstant(tree, (VariableElement) element, type);
      default -> throw new KernelError(tree, Errors.unsupportedExpression(describe(tree)));
    };
  }

  private Expr memberSelect(TreePath path, PrimType type) {
    MemberSelectTree select = (MemberSelectTree) path.getLeaf();
    TreePath target = child(path, select.getExpression());
    if (select.getIdentifier().contentEquals("length")
        && trees.getTypeMirror(target) instanceof ArrayType) {
      return switch (array(target)) {
        case ArrayRef.Buffer buffer -> new Expr.Length(buffer.decl());
        case ArrayRef.Fixed fixed -> fixed.decl().length();
        case ArrayRef.Chosen chosen -> chosen.choose(Expr.Length::new);
        case ArrayRef.Rows rows when rows.depth() == 0 -> new Expr.IntConst(rows.length());
        case ArrayRef.Rows rows -> { // Java checks the row's indices first
          Local row = scope.temporary("row", PrimType.INT);
          yield new Expr.Effect(
              List.of(new Stmt.Assign(row, rows.offset())), new Expr.IntConst(rows.length()));
        }
      };
    }
    Element owner = trees.getElement(target);
    if (owner != null && scope.isRejected(owner)) {
      throw new AlreadyReported(); // 'v.x' of a local whose type was reported: one error per
      // mistake
    }
    Element element = trees.getElement(path);
    if (element != null && element.getKind() == ElementKind.FIELD) {
      return fieldConstant(select, (VariableElement) element, type);
    }
    throw new KernelError(select, Errors.unsupportedExpression(describe(select)));
  }

  /** The value of a constant field or constant variable. */
  private static Expr fieldConstant(Tree tree, VariableElement field, PrimType type) {
    Object value = field.getConstantValue();
    if (value == null) {
      throw new KernelError(tree, Errors.unsupportedField(field.getSimpleName()));
    }
    return constant(value, type);
  }

  /**
   * The buffer parameter, shared or private array, or row of a private array of two or three
   * dimensions that the array expression at {@code path} names.
   */
  @Override
  public ArrayRef array(TreePath path) {
    path = unparenthesized(path);
    Tree tree = path.getLeaf();
    if (tree instanceof com.sun.source.tree.AssignmentTree assignment
        && scope.isRejected(trees.getElement(child(path, assignment.getVariable())))) {
      throw new AlreadyReported(); // an array variable given a buffer in an expression: reported
    }
    if (tree instanceof ArrayAccessTree access
        && array(child(path, access.getExpression())) instanceof ArrayRef.Rows rows
        && !rows.lastLevel()) {
      return rows.row(expr(child(path, access.getIndex()), PrimType.INT), site(access));
    }
    Element element = trees.getElement(path);
    if (element != null && element.getKind() == ElementKind.PARAMETER) {
      Optional<ArrayRef> parameter =
          isKernelParameter(element)
              ? scope.buffer(element.getSimpleName().toString()).map(ArrayRef.Buffer::new)
              : scope.arrayParameter(element);
      if (parameter.isPresent()) {
        return parameter.get();
      }
    }
    Optional<ArrayRef> local =
        element == null || element.getKind() == ElementKind.PARAMETER
            ? Optional.empty()
            : scope
                .arrayParameter(element)
                .or(
                    () ->
                        Optional.ofNullable(scope.aliasesByElement().get(element))
                            .map(BufferAlias::ref));
    if (local.isPresent()) {
      return local.get();
    }
    if (element != null && element.getKind() == ElementKind.FIELD) {
      throw new KernelError(tree, Errors.unsupportedField(element.getSimpleName()));
    }
    if (element != null && scope.isRejected(element)) {
      throw new AlreadyReported();
    }
    throw new KernelError(
        tree,
        Errors.unsupportedExpression("indexing anything but a buffer parameter or shared array"));
  }

  private Expr load(TreePath path) {
    ArrayAccessTree access = (ArrayAccessTree) path.getLeaf();
    ArrayRef array = array(child(path, access.getExpression()));
    Expr index = expr(child(path, access.getIndex()), PrimType.INT);
    Site site = site(access);
    return switch (array) {
      case ArrayRef.Rows rows -> new Expr.Load(array.decl(), rows.at(index, site), site);
      case ArrayRef.Chosen chosen -> {
        Local at = scope.temporary("index", PrimType.INT);
        yield new Expr.Let(
            at, index, chosen.choose(buffer -> new Expr.Load(buffer, new Expr.LocalGet(at), site)));
      }
      default -> new Expr.Load(array.decl(), index, site);
    };
  }

  /**
   * The local that an assignment to the name at {@code target} assigns; a field or a buffer is an
   * error.
   */
  @Override
  public Local assignedLocal(TreePath target) {
    Tree tree = target.getLeaf();
    Element element = trees.getElement(target);
    if (element != null && scope.isRejected(element)) {
      throw new AlreadyReported();
    }
    if (element != null && element.getKind() == ElementKind.FIELD) {
      throw new KernelError(tree, Errors.unsupportedField(element.getSimpleName()));
    }
    return (element == null ? Optional.<Local>empty() : scope.local(element))
        .orElseThrow(
            () ->
                new KernelError(
                    tree,
                    Errors.unsupportedArrayUse(element == null ? tree : element.getSimpleName())));
  }

  /** A primitive cast, with Java's conversion. */
  private Expr cast(TreePath path, TypeCastTree cast) {
    return expr(child(path, cast.getExpression()), valueType(path));
  }
}
