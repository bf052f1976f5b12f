package dev.kiln.processor.ir;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A program as text, Java-like, for reading what the passes made of a kernel ({@code -Akiln.dump}).
 */
public final class IrText {
  private final StringBuilder text = new StringBuilder();

  private IrText() {}

  public static String of(Program program) {
    IrText out = new IrText();
    out.header(program);
    out.statements(program.body(), 1);
    return out.text.append("}\n").toString();
  }

  private void header(Program program) {
    Workgroup w = program.workgroup();
    text.append("program ")
        .append(program.name())
        .append(" workgroup {")
        .append(w.x())
        .append(", ")
        .append(w.y())
        .append(", ")
        .append(w.z())
        .append('}')
        .append(" arms ")
        .append(program.arms())
        .append(" elementsPerInvocation ")
        .append(program.elementsPerInvocation())
        .append(" boundsChecks ")
        .append(program.boundsChecks())
        .append(" {\n");
    for (BufferDecl buffer : program.buffers()) {
      text.append("  buffer ")
          .append(buffer.element().javaName())
          .append("[] ")
          .append(buffer.name())
          .append(" ")
          .append(buffer.access())
          .append(" binding ")
          .append(buffer.binding())
          .append('\n');
    }
    for (SharedArray shared : program.shared()) {
      text.append("  shared ")
          .append(shared.element().javaName())
          .append('[')
          .append(expression(shared.length()))
          .append("] ")
          .append(shared.name())
          .append('\n');
    }
    for (PrivateArray array : program.privates()) {
      text.append("  private ")
          .append(array.element().javaName())
          .append('[')
          .append(expression(array.length()))
          .append("] ")
          .append(array.name())
          .append('\n');
    }
    for (ScalarParam scalar : program.scalars()) {
      text.append("  scalar ")
          .append(scalar.type().javaName())
          .append(' ')
          .append(scalar.name())
          .append('\n');
    }
    for (Local local : program.locals()) {
      text.append("  local ")
          .append(local.type().javaName())
          .append(' ')
          .append(local(local))
          .append('\n');
    }
  }

  private static String local(Local local) {
    return local.name() + "#" + local.id();
  }

  private void line(int depth, String line) {
    text.append("  ".repeat(depth)).append(line).append('\n');
  }

  private void statements(List<Stmt> body, int depth) {
    for (Stmt statement : body) {
      statement(statement, depth);
    }
  }

  private void statement(Stmt statement, int depth) {
    switch (statement) {
      case Stmt.Assign assign ->
          line(depth, local(assign.local()) + " = " + expression(assign.value()) + ";");
      case Stmt.Store store ->
          line(
              depth,
              store.array().name()
                  + "["
                  + expression(store.index())
                  + "] = "
                  + expression(store.value())
                  + ";");
      case Stmt.Atomic atomic ->
          line(
              depth,
              (atomic.result() == null ? "" : local(atomic.result()) + " = ")
                  + atomic.op().intrinsic()
                  + "("
                  + atomic.array().name()
                  + ", "
                  + expression(atomic.index())
                  + ", "
                  + expression(atomic.value())
                  + (atomic.expected() == null ? "" : ", " + expression(atomic.expected()))
                  + ");");
      case Stmt.DeclareShared declared ->
          line(depth, "declare shared " + declared.array().name() + ";");
      case Stmt.VectorLoad load ->
          line(
              depth,
              load.lanes().stream().map(IrText::local).collect(Collectors.joining(", ", "(", ")"))
                  + " = vectorLoad("
                  + load.buffer().name()
                  + ", "
                  + expression(load.vector())
                  + ");");
      case Stmt.VectorStore store ->
          line(
              depth,
              "vectorStore("
                  + store.buffer().name()
                  + ", "
                  + expression(store.vector())
                  + ", "
                  + store.lanes().stream()
                      .map(IrText::expression)
                      .collect(Collectors.joining(", ", "(", ")"))
                  + ");");
      case Stmt.ClearArray clear -> line(depth, "clear " + clear.array().name() + ";");
      case Stmt.Barrier barrier -> line(depth, "barrier();");
      case Stmt.Matrix matrix -> line(depth, matrix(matrix.op()) + ";");
      case Stmt.Copy copy ->
          line(
              depth,
              "arraycopy("
                  + copy.source().name()
                  + ", "
                  + expression(copy.sourceIndex())
                  + ", "
                  + copy.target().name()
                  + ", "
                  + expression(copy.targetIndex())
                  + ", "
                  + copy.length()
                  + ");");
      case Stmt.If branch -> {
        line(depth, "if (" + expression(branch.condition()) + ") {");
        statements(branch.then(), depth + 1);
        if (!branch.otherwise().isEmpty()) {
          line(depth, "} else {");
          statements(branch.otherwise(), depth + 1);
        }
        line(depth, "}");
      }
      case Stmt.Loop loop -> {
        String label =
            (loop.unroll() ? "[unroll] " : "")
                + (loop.label() == null ? "" : loop.label().name() + ": ");
        line(
            depth,
            label + (loop.testFirst() ? "while (" + expression(loop.condition()) + ") {" : "do {"));
        statements(loop.body(), depth + 1);
        if (!loop.update().isEmpty()) {
          line(depth + 1, "// update");
          statements(loop.update(), depth + 1);
        }
        line(depth, loop.testFirst() ? "}" : "} while (" + expression(loop.condition()) + ");");
      }
      case Stmt.Switch choice -> {
        line(depth, "switch (" + expression(choice.selector()) + ") {");
        for (Stmt.Case branch : choice.cases()) {
          line(
              depth + 1,
              (branch.isDefault()
                      ? "default"
                      : "case "
                          + branch.labels().stream()
                              .map(String::valueOf)
                              .collect(Collectors.joining(", ")))
                  + ":");
          statements(branch.body(), depth + 2);
        }
        line(depth, "}");
      }
      case Stmt.Break jump ->
          line(depth, "break" + (jump.label() == null ? "" : " " + jump.label().name()) + ";");
      case Stmt.Continue jump ->
          line(depth, "continue" + (jump.label() == null ? "" : " " + jump.label().name()) + ";");
      case Stmt.Return ret -> line(depth, "return;");
      case Stmt.Call call ->
          line(
              depth,
              (call.result() == null ? "" : local(call.result()) + " = ")
                  + call.helper()
                  + java.util.stream.Stream.concat(
                          call.arguments().stream().map(IrText::expression),
                          call.arrays().stream().map(ArrayDecl::name))
                      .collect(Collectors.joining(", ", "(", ")"))
                  + ";");
    }
  }

  private static String matrix(MatrixOp op) {
    return switch (op) {
      case MatrixOp.Fill fill ->
          fragment(fill.target()) + " = fill(" + expression(fill.value()) + ")";
      case MatrixOp.Load load ->
          fragment(load.target())
              + " = load("
              + load.array().name()
              + ", "
              + expression(load.offset())
              + ", "
              + expression(load.stride())
              + (load.columnMajor() ? ", columns" : ", rows")
              + (load.element() == Fragment.Element.BFLOAT16 ? ", bfloat16)" : ")");
      case MatrixOp.Store store ->
          "store("
              + fragment(store.source())
              + ", "
              + store.array().name()
              + ", "
              + expression(store.offset())
              + ", "
              + expression(store.stride())
              + (store.columnMajor() ? ", columns)" : ", rows)");
      case MatrixOp.MultiplyAdd m ->
          fragment(m.target())
              + " = "
              + fragment(m.a())
              + " * "
              + fragment(m.b())
              + " + "
              + fragment(m.c());
      case MatrixOp.Scale scale ->
          fragment(scale.target())
              + " = "
              + fragment(scale.source())
              + " * "
              + expression(scale.factor());
      case MatrixOp.Add add ->
          fragment(add.target()) + " = " + fragment(add.x()) + " + " + fragment(add.y());
      case MatrixOp.Copy copy -> fragment(copy.target()) + " = " + fragment(copy.source());
    };
  }

  private static String fragment(Fragment fragment) {
    return fragment.name()
        + "$"
        + fragment.id()
        + ":"
        + fragment.use().name().toLowerCase(java.util.Locale.ROOT);
  }

  private static String expression(Expr expression) {
    return switch (expression) {
      case Expr.IntConst c -> Integer.toString(c.value());
      case Expr.FloatConst c -> c.value() + "f";
      case Expr.LongConst c -> c.value() + "L";
      case Expr.DoubleConst c -> Double.toString(c.value());
      case Expr.BoolConst c -> Boolean.toString(c.value());
      case Expr.LocalGet get -> local(get.local());
      case Expr.ScalarGet get -> get.param().name();
      case Expr.Load load -> load.array().name() + "[" + expression(load.index()) + "]";
      case Expr.Checked checked ->
          "checked(" + expression(checked.index()) + " < " + checked.length() + ")";
      case Expr.Length length -> length.buffer().name() + ".length";
      case Expr.BuiltinGet get -> get.builtin().intrinsic() + "(" + get.axis() + ")";
      case Expr.InLaunch gate ->
          "inLaunch(arm " + gate.arm() + (gate.wholeWorkgroups() ? ", whole workgroups)" : ")");
      case Expr.ArmWorkgroups workgroups ->
          "workgroupsOf(arm "
              + workgroups.arm()
              + ", "
              + workgroups.axis()
              + ", "
              + workgroups.size()
              + ")";
      case Expr.LaunchCount count -> "countOf(arm " + count.arm() + ", " + count.axis() + ")";
      case Expr.Unary unary ->
          switch (unary.op()) {
                case NEG -> "-";
                case COMPLEMENT -> "~";
                case NOT -> "!";
              }
              + expression(unary.operand());
      case Expr.Binary binary ->
          "("
              + expression(binary.left())
              + " "
              + symbol(binary.op())
              + " "
              + expression(binary.right())
              + ")";
      case Expr.Call call ->
          call.function().name().toLowerCase()
              + call.arguments().stream()
                  .map(IrText::expression)
                  .collect(Collectors.joining(", ", "(", ")"));
      case Expr.Convert convert ->
          "(" + convert.type().javaName() + ") " + expression(convert.value());
      case Expr.Conditional conditional ->
          "("
              + expression(conditional.condition())
              + " ? "
              + expression(conditional.then())
              + " : "
              + expression(conditional.otherwise())
              + ")";
      case Expr.Effect effect ->
          "(do "
              + effect.statements().size()
              + " statements then "
              + expression(effect.value())
              + ")";
      case Expr.Let let ->
          "(let "
              + local(let.local())
              + " = "
              + expression(let.value())
              + " in "
              + expression(let.body())
              + ")";
    };
  }

  private static String symbol(BinaryOp op) {
    return switch (op) {
      case ADD -> "+";
      case SUB -> "-";
      case MUL -> "*";
      case DIV -> "/";
      case REM -> "%";
      case SHL -> "<<";
      case SHR -> ">>";
      case USHR -> ">>>";
      case AND -> "&";
      case OR -> "|";
      case XOR -> "^";
      case EQ -> "==";
      case NE -> "!=";
      case LT -> "<";
      case LE -> "<=";
      case GT -> ">";
      case GE -> ">=";
    };
  }
}
