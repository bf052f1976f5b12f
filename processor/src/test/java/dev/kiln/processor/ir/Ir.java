package dev.kiln.processor.ir;

import dev.kiln.annotations.Access;
import java.util.ArrayList;
import java.util.List;

/** Builds small IR programs by hand for pass tests, without javac. */
public final class Ir {
  private static int sites;

  private final String name;
  private final Workgroup workgroup;
  private final List<BufferDecl> buffers = new ArrayList<>();
  private final List<ScalarParam> scalars = new ArrayList<>();
  private final List<Local> locals = new ArrayList<>();
  private final List<Stmt> body = new ArrayList<>();

  private Ir(String name, Workgroup workgroup) {
    this.name = name;
    this.workgroup = workgroup;
  }

  public static Ir kernel(String name, int width) {
    return new Ir(name, new Workgroup(width, 1, 1));
  }

  public static Ir kernel(String name, Workgroup workgroup) {
    return new Ir(name, workgroup);
  }

  public Ir buffer(String buffer, PrimType element) {
    buffers.add(new BufferDecl(buffer, element, Access.READ_WRITE, buffers.size()));
    return this;
  }

  public Ir scalar(String scalar, PrimType type) {
    scalars.add(new ScalarParam(scalar, type));
    return this;
  }

  public Local local(String local) {
    Local declared = Local.fresh(local, PrimType.INT);
    locals.add(declared);
    return declared;
  }

  public Ir add(Stmt... statements) {
    body.addAll(List.of(statements));
    return this;
  }

  public Program program() {
    return new Program(
        name, workgroup, 1, true, buffers, List.of(), List.of(), scalars, locals, body);
  }

  public static Site site() {
    return new Site(sites + 1, sites++);
  }

  public static Expr gid() {
    return new Expr.BuiltinGet(Builtin.GLOBAL_ID, 0);
  }

  public static Expr lid() {
    return new Expr.BuiltinGet(Builtin.LOCAL_ID, 0);
  }

  public static Expr wid() {
    return new Expr.BuiltinGet(Builtin.WORKGROUP_ID, 0);
  }

  public static Expr c(int value) {
    return new Expr.IntConst(value);
  }

  public static Expr get(Local local) {
    return new Expr.LocalGet(local);
  }

  public static Expr scalar(String name) {
    return new Expr.ScalarGet(new ScalarParam(name, PrimType.INT));
  }

  public static Expr op(BinaryOp op, Expr left, Expr right) {
    return new Expr.Binary(op, left, right);
  }

  /** The float buffer named {@code buffer}, as a kernel declaring it first would bind it. */
  public static BufferDecl floats(String buffer) {
    return new BufferDecl(buffer, PrimType.FLOAT, Access.READ_WRITE, 0);
  }

  public static Expr load(String buffer, Expr index) {
    return new Expr.Load(floats(buffer), index, site());
  }

  public static Stmt store(String buffer, Expr index, Expr value) {
    return new Stmt.Store(floats(buffer), index, value, site());
  }

  public static Stmt assign(Local local, Expr value) {
    return new Stmt.Assign(local, value);
  }
}
