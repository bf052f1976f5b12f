package dev.kiln.processor.analysis;

import dev.kiln.processor.ir.ArrayDecl;
import dev.kiln.processor.ir.Builtin;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.MatrixOp;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What passes need to know about a program, computed from its body: whether it waits at barriers,
 * uses workgroup memory, reads which invocation ids, calls subgroup operations or atomics, uses
 * cooperative matrices, and every access of every array (by the array's name), in program order.
 * The accesses are element accesses: a matrix's loads and stores of whole tiles are not among them
 * (the passes that read accesses refuse programs with {@link #matrices}) but kept apart, in {@code
 * tiles}, at their first element, for what asks only whether a buffer is read or written ({@link
 * #usesOf}); each side of a copy is, at its first element, marked as a range (the passes that
 * follow single elements refuse programs with {@link #copies}, or take such an access as one that
 * may meet any element).
 */
public record Facts(
    boolean barriers,
    boolean workgroupMemory,
    Set<Builtin> builtins,
    boolean subgroups,
    boolean atomics,
    boolean matrices,
    boolean copies,
    Map<String, List<Access>> accesses,
    Map<String, List<Access>> tiles) {

  /** How an access uses its element; an atomic reads and writes it. */
  public enum Kind {
    READ,
    WRITE,
    ATOMIC;

    public boolean writes() {
      return this != READ;
    }

    /** "reads", "writes", "updates atomically", for messages. */
    public String verb() {
      return switch (this) {
        case READ -> "reads";
        case WRITE -> "writes";
        case ATOMIC -> "atomically updates";
      };
    }
  }

  /**
   * One access of {@code array[index]} at {@code site}; where {@code range}, a copy's side, whose
   * elements run on from {@code index}.
   */
  public record Access(ArrayDecl array, Kind kind, Expr index, Site site, boolean range) {
    /** An access of the one element {@code array[index]}. */
    public Access(ArrayDecl array, Kind kind, Expr index, Site site) {
      this(array, kind, index, site, false);
    }
  }

  public Facts {
    builtins = Set.copyOf(builtins);
    Map<String, List<Access>> copy = new LinkedHashMap<>();
    accesses.forEach((array, list) -> copy.put(array, List.copyOf(list)));
    accesses = java.util.Collections.unmodifiableMap(copy);
    Map<String, List<Access>> tilesCopy = new LinkedHashMap<>();
    tiles.forEach((array, list) -> tilesCopy.put(array, List.copyOf(list)));
    tiles = java.util.Collections.unmodifiableMap(tilesCopy);
  }

  public static Facts of(Program program) {
    boolean[] barriers = {false};
    boolean[] atomics = {false};
    boolean[] matrices = {false};
    boolean[] copies = {false};
    Map<String, List<Access>> accesses = new LinkedHashMap<>();
    Map<String, List<Access>> tiles = new LinkedHashMap<>();
    Walk.statements(
        program.body(),
        statement -> {
          switch (statement) {
            case Stmt.Barrier b -> barriers[0] = true;
            case Stmt.Matrix matrix -> {
              matrices[0] = true;
              switch (matrix.op()) {
                case MatrixOp.Load load ->
                    add(tiles, new Access(load.array(), Kind.READ, load.offset(), matrix.site()));
                case MatrixOp.Store store ->
                    add(
                        tiles,
                        new Access(store.array(), Kind.WRITE, store.offset(), matrix.site()));
                default -> {}
              }
            }
            case Stmt.Copy copy ->
                copies[0] = true; // its sides are added after its indices' loads, below
            case Stmt.Store store ->
                add(accesses, new Access(store.array(), Kind.WRITE, store.index(), store.site()));
            case Stmt.Atomic atomic -> {
              atomics[0] = true;
              add(accesses, new Access(atomic.array(), Kind.ATOMIC, atomic.index(), atomic.site()));
            }
            default -> {}
          }
          // loads, in the order the statement evaluates its expressions
          Walk.ownExpressions(statement)
              .forEach(
                  root ->
                      Walk.expression(
                          root,
                          expression -> {
                            if (expression instanceof Expr.Load load) {
                              add(
                                  accesses,
                                  new Access(load.array(), Kind.READ, load.index(), load.site()));
                            }
                          }));
          if (statement instanceof Stmt.Copy copy) {
            add(
                accesses,
                new Access(copy.source(), Kind.READ, copy.sourceIndex(), copy.site(), true));
            add(
                accesses,
                new Access(copy.target(), Kind.WRITE, copy.targetIndex(), copy.site(), true));
          }
        });
    Set<Builtin> builtins = EnumSet.noneOf(Builtin.class);
    boolean[] subgroups = {false};
    Walk.expressions(
        program.body(),
        expression -> {
          if (expression instanceof Expr.BuiltinGet get) {
            builtins.add(get.builtin());
          } else if (expression instanceof Expr.Call call && call.function().isSubgroup()) {
            subgroups[0] = true;
          }
        });
    return new Facts(
        barriers[0],
        !program.shared().isEmpty(),
        builtins,
        subgroups[0],
        atomics[0],
        matrices[0],
        copies[0],
        accesses,
        tiles);
  }

  private static void add(Map<String, List<Access>> accesses, Access access) {
    accesses.computeIfAbsent(access.array().name(), array -> new ArrayList<>()).add(access);
  }

  /**
   * Every use of the array named {@code array}: its element accesses, then its tiles' loads and
   * stores; empty if the program does not touch it.
   */
  public List<Access> usesOf(String array) {
    List<Access> uses = new ArrayList<>(accessesOf(array));
    uses.addAll(tiles.getOrDefault(array, List.of()));
    return uses;
  }

  /** The accesses of the array named {@code array}; empty if the program does not index it. */
  public List<Access> accessesOf(String array) {
    return accesses.getOrDefault(array, List.of());
  }

  /**
   * Why the program's results depend on its workgroup's size, or null if they do not: it waits at
   * barriers, shares workgroup memory, reads local or workgroup ids, or uses subgroups.
   */
  public String workgroupDependence() {
    if (barriers) {
      return "waits at Gpu.barrier()";
    }
    if (workgroupMemory) {
      return "uses workgroup memory (Gpu.shared*)";
    }
    if (builtins.contains(Builtin.LOCAL_ID)) {
      return "reads Gpu.localId";
    }
    if (builtins.contains(Builtin.WORKGROUP_ID)) {
      return "reads Gpu.workgroupId";
    }
    if (subgroups) {
      return "uses subgroup operations";
    }
    return null;
  }
}
