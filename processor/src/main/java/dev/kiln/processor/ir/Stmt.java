package dev.kiln.processor.ir;

import java.util.List;

/** A statement of the kernel language. Blocks are plain lists; locals are unique per program. */
public sealed interface Stmt {
  record Assign(Local local, Expr value) implements Stmt {}

  /** {@code array[index] = value} on a buffer, shared or private array, written at {@code site}. */
  record Store(ArrayDecl array, Expr index, Expr value, Site site) implements Stmt {}

  /**
   * An atomic update of an int buffer or shared array element, its previous value assigned to
   * {@code result} when there is one; {@code expected} is null but for compare-exchange.
   */
  record Atomic(
      Local result, AtomicOp op, ArrayDecl array, Expr index, Expr value, Expr expected, Site site)
      implements Stmt {}

  /**
   * Where the kernel declares workgroup memory; it does nothing when run, and must stand at the top
   * level of the kernel body so that every invocation makes the same declarations.
   */
  record DeclareShared(SharedArray array) implements Stmt {}

  /**
   * Reads the {@code lanes.size()} elements of {@code buffer} from {@code lanes.size() * vector} on
   * into {@code lanes}, with 16-byte vector loads; the caller has made sure they are in bounds.
   */
  record VectorLoad(BufferDecl buffer, Expr vector, List<Local> lanes) implements Stmt {
    public VectorLoad {
      lanes = List.copyOf(lanes);
    }
  }

  /**
   * Writes {@code lanes} to {@code buffer} from {@code lanes.size() * vector} on, with 16-byte
   * vector stores.
   */
  record VectorStore(BufferDecl buffer, Expr vector, List<Expr> lanes) implements Stmt {
    public VectorStore {
      lanes = List.copyOf(lanes);
    }
  }

  /**
   * {@code System.arraycopy(source, sourceIndex, target, targetIndex, length)} with a constant
   * {@code length} and arrays of one element type: Java's semantics, all of it or, where either
   * range leaves its array, nothing and a fault (docs/KERNELS.md, "Copies").
   */
  record Copy(
      ArrayDecl source, Expr sourceIndex, ArrayDecl target, Expr targetIndex, int length, Site site)
      implements Stmt {
    /** The most bytes one copy moves: 16 vectors of 16 bytes, unrolled. */
    public static final int MOST_BYTES = 256;

    /** The longest copy of {@code element}s. */
    public static int longest(PrimType element) {
      return MOST_BYTES / Math.max(1, element.bytes());
    }
  }

  /** Sets every element of a private array to zero, as {@code new T[n]} does in Java. */
  record ClearArray(PrivateArray array) implements Stmt {}

  /**
   * Waits until every invocation of the workgroup gets here; orders workgroup and buffer memory.
   * {@code site} is null for a barrier a pass inserted.
   */
  record Barrier(Site site) implements Stmt {}

  /** A cooperative-matrix operation of the subgroup (docs/KERNELS.md, "Cooperative matrices"). */
  record Matrix(MatrixOp op, Site site) implements Stmt {}

  record If(Expr condition, List<Stmt> then, List<Stmt> otherwise) implements Stmt {}

  /**
   * A loop. With {@code testFirst} it is {@code while (condition) { body; update; }}, otherwise
   * {@code do { body; update; } while (condition)}; {@code continue} runs {@code update} and then
   * the test. With {@code unroll} the module asks the driver to unroll it ({@code OpLoopMerge}'s
   * {@code Unroll} control): what it computes is the same.
   */
  record Loop(
      Expr condition,
      boolean testFirst,
      List<Stmt> body,
      List<Stmt> update,
      Label label,
      Site site,
      boolean unroll)
      implements Stmt {
    /** A loop the driver unrolls by its own measure. */
    public Loop(
        Expr condition,
        boolean testFirst,
        List<Stmt> body,
        List<Stmt> update,
        Label label,
        Site site) {
      this(condition, testFirst, body, update, label, site, false);
    }

    /** An unlabelled loop of the source at {@code site}. */
    public Loop(Expr condition, boolean testFirst, List<Stmt> body, List<Stmt> update, Site site) {
      this(condition, testFirst, body, update, null, site);
    }

    /** An unlabelled loop that lowering makes, of no source line of its own. */
    public Loop(Expr condition, boolean testFirst, List<Stmt> body, List<Stmt> update) {
      this(condition, testFirst, body, update, null, null);
    }

    /**
     * A loop whose body runs once, so that a {@code break label} anywhere in it leaves {@code
     * body}.
     */
    public static Loop once(List<Stmt> body, Label label) {
      return new Loop(new Expr.BoolConst(false), false, body, List.of(), label, null);
    }

    public Loop withBody(List<Stmt> newBody) {
      return new Loop(condition, testFirst, newBody, update, label, site, unroll);
    }

    /** This loop with the label {@code label}. */
    public Loop withLabel(Label newLabel) {
      return new Loop(condition, testFirst, body, update, newLabel, site, unroll);
    }

    /** This loop, which the module asks the driver to unroll. */
    public Loop unrolled() {
      return new Loop(condition, testFirst, body, update, label, site, true);
    }
  }

  /**
   * A switch on an int: control enters at the case whose labels hold the selector's value (or the
   * default case, or leaves), and runs on through the following cases until a break, as in Java.
   */
  record Switch(Expr selector, List<Case> cases) implements Stmt {}

  /** A case of a switch: its labels, whether it is the default, and its statements. */
  record Case(List<Integer> labels, boolean isDefault, List<Stmt> body) {}

  /** Leaves the loop labelled {@code label}, or the innermost loop or switch when it is null. */
  record Break(Label label) implements Stmt {
    public Break() {
      this(null);
    }
  }

  /**
   * Goes on with the next iteration of the loop labelled {@code label}, or of the innermost loop.
   */
  record Continue(Label label) implements Stmt {
    public Continue() {
      this(null);
    }
  }

  /** Ends this invocation. */
  record Return() implements Stmt {}

  /**
   * A call of a helper of another top-level class, which javac analyzes apart from the kernel's:
   * {@code helper} names the method ({@code pkg.Util.f(float,int[])}), {@code owner} its top-level
   * class. The scalar {@code arguments} are evaluated in order, then the body runs with {@code
   * arrays} for its array parameters, its value going to {@code result} (null to drop it). Lowering
   * makes it and linking ({@code lower.HelperLinker}) replaces it by the helper's body before any
   * check, analysis or pass reads the program; they treat one as a broken invariant.
   */
  record Call(
      String helper,
      String owner,
      List<Expr> arguments,
      List<ArrayDecl> arrays,
      Local result,
      Site site)
      implements Stmt {
    public Call {
      arguments = List.copyOf(arguments);
      arrays = List.copyOf(arrays);
    }

    /** The error of a pass that met a call linking should have replaced. */
    public IllegalStateException unlinked() {
      return new IllegalStateException("the call of " + helper + " was not linked");
    }
  }
}
