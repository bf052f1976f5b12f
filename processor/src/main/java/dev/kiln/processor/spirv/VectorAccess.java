package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Stmt;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The vector path of a vectorized program: loads and stores of an invocation's consecutive buffer
 * elements (4 or 2; at most 16 bytes a vector) through a second view of each buffer, a runtime
 * array of vectors at the same binding. The scalar view stays for every other access and for
 * lengths.
 */
final class VectorAccess {
  /** The most bytes one vector load or store moves. */
  static final int VECTOR_BYTES = 16;

  /** The debug string that tells the runtime how many elements each invocation handles. */
  private final FunctionBuilder fn;

  private final Map<String, Integer> views = new HashMap<>();

  /** Elements per invocation: every vector view holds that many, or 16 bytes' worth if fewer. */
  private final int lanes;

  VectorAccess(FunctionBuilder fn, int lanes) {
    this.fn = fn;
    this.lanes = lanes;
  }

  void load(
      Stmt.VectorLoad load, Function<Expr, Integer> valueOf, Function<Local, Integer> variableOf) {
    PrimType element = load.buffer().element();
    int perVector = width(element);
    int vectorType = vectorType(element);
    int first = firstVector(valueOf.apply(load.vector()), load.lanes().size(), perVector);
    for (int v = 0; v * perVector < load.lanes().size(); v++) {
      int vector = fn.load(vectorType, pointer(load.buffer(), add(first, v)));
      for (int c = 0; c < perVector; c++) {
        int lane = fn.op(SpvOpCompositeExtract, fn.typeOf(element), vector, c);
        fn.store(variableOf.apply(load.lanes().get(v * perVector + c)), lane);
      }
    }
  }

  void store(Stmt.VectorStore store, Function<Expr, Integer> valueOf) {
    PrimType element = store.buffer().element();
    int perVector = width(element);
    int vectorType = vectorType(element);
    int[] values = store.lanes().stream().mapToInt(valueOf::apply).toArray();
    int first = firstVector(valueOf.apply(store.vector()), values.length, perVector);
    for (int v = 0; v * perVector < values.length; v++) {
      int[] components = new int[perVector];
      System.arraycopy(values, v * perVector, components, 0, perVector);
      int vector = fn.op(SpvOpCompositeConstruct, vectorType, components);
      fn.store(pointer(store.buffer(), add(first, v)), vector);
    }
  }

  /** The index of the first vector: {@code vector * lanes / perVector}. */
  private int firstVector(int index, int lanes, int perVector) {
    int factor = lanes / perVector;
    return factor == 1
        ? index
        : fn.op(SpvOpIMul, fn.module().typeInt(), index, fn.module().constantInt(factor));
  }

  private int add(int index, int offset) {
    return offset == 0
        ? index
        : fn.op(SpvOpIAdd, fn.module().typeInt(), index, fn.module().constantInt(offset));
  }

  private int pointer(BufferDecl buffer, int index) {
    SpirvModule module = fn.module();
    int vectorType = vectorType(buffer.element());
    return fn.op(
        SpvOpAccessChain,
        module.typePointer(SpvStorageClassStorageBuffer, vectorType),
        view(buffer),
        module.constantInt(0),
        index);
  }

  /** Components of the vectors of a buffer of {@code element}s. */
  private int width(PrimType element) {
    return Math.min(lanes, VECTOR_BYTES / element.bytes());
  }

  private int vectorType(PrimType element) {
    return fn.module().type(SpvOpTypeVector, fn.typeOf(element), width(element));
  }

  /** The buffer's vector view: declared on first use, at the buffer's binding. */
  private int view(BufferDecl buffer) {
    return views.computeIfAbsent(
        buffer.name(),
        name ->
            BufferViews.view(
                fn,
                buffer,
                vectorType(buffer.element()),
                width(buffer.element()) * buffer.element().bytes(),
                name + "4"));
  }
}
