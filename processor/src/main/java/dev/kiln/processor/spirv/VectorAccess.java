package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.annotations.Access;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.Stmt;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The vector path of a vectorized program: loads and stores of an invocation's consecutive buffer
 * elements (4 or 2; at most 16 bytes a vector) through a second view of each buffer, a runtime
 * array of vectors at the same binding. The scalar view stays for every other access and for lengths.
 */
final class VectorAccess {
  /** The most bytes one vector load or store moves. */
  static final int VECTOR_BYTES = 16;
  /** The debug string that tells the runtime how many elements each invocation handles. */
  static final String ELEMENTS_PER_INVOCATION = "kiln.elementsPerInvocation ";

  private final SpirvWriter writer;
  private final Map<String, Integer> views = new HashMap<>();
  /** The block type of each element type's vector view, declared once. */
  private final Map<PrimType, Integer> blocks = new HashMap<>();
  /** Elements per invocation: every vector view holds that many, or 16 bytes' worth if fewer. */
  private final int lanes;

  VectorAccess(SpirvWriter writer, int lanes) {
    this.writer = writer;
    this.lanes = lanes;
  }

  /** Marks the module for the runtime, which then dispatches {@code elements} times fewer invocations. */
  static void declareElementsPerInvocation(SpirvModule module, int elements) {
    module.processed.opWithString(SpvOpModuleProcessed, new int[0], ELEMENTS_PER_INVOCATION + elements);
  }

  void load(Stmt.VectorLoad load, Function<Local, Integer> variableOf) {
    PrimType element = load.buffer().element();
    int perVector = width(element);
    int vectorType = vectorType(element);
    int first = firstVector(load.vector(), load.lanes().size(), perVector);
    for (int v = 0; v * perVector < load.lanes().size(); v++) {
      int vector = writer.load(vectorType, pointer(load.buffer(), add(first, v)));
      for (int c = 0; c < perVector; c++) {
        int lane = writer.op(SpvOpCompositeExtract, writer.typeOf(element), vector, c);
        writer.store(variableOf.apply(load.lanes().get(v * perVector + c)), lane);
      }
    }
  }

  void store(Stmt.VectorStore store, Function<dev.kiln.processor.ir.Expr, Integer> valueOf) {
    PrimType element = store.buffer().element();
    int perVector = width(element);
    int vectorType = vectorType(element);
    int[] values = store.lanes().stream().mapToInt(valueOf::apply).toArray();
    int first = firstVector(store.vector(), values.length, perVector);
    for (int v = 0; v * perVector < values.length; v++) {
      int[] components = new int[perVector];
      System.arraycopy(values, v * perVector, components, 0, perVector);
      int vector = writer.op(SpvOpCompositeConstruct, vectorType, components);
      writer.store(pointer(store.buffer(), add(first, v)), vector);
    }
  }

  /** The index of the first 16-byte vector: {@code vector * lanes / perVector}. */
  private int firstVector(dev.kiln.processor.ir.Expr vector, int lanes, int perVector) {
    int index = writer.valueOf(vector);
    int factor = lanes / perVector;
    return factor == 1 ? index
        : writer.op(SpvOpIMul, writer.module().typeInt(), index, writer.module().constantInt(factor));
  }

  private int add(int index, int offset) {
    return offset == 0 ? index
        : writer.op(SpvOpIAdd, writer.module().typeInt(), index, writer.module().constantInt(offset));
  }

  private int pointer(BufferDecl buffer, int index) {
    SpirvModule module = writer.module();
    int vectorType = vectorType(buffer.element());
    return writer.op(SpvOpAccessChain, module.typePointer(SpvStorageClassStorageBuffer, vectorType), view(buffer),
        module.constantInt(0), index);
  }

  /** Components of the vectors of a buffer of {@code element}s. */
  private int width(PrimType element) {
    return Math.min(lanes, VECTOR_BYTES / element.bytes());
  }

  private int vectorType(PrimType element) {
    return writer.module().type(SpvOpTypeVector, writer.typeOf(element), width(element));
  }

  /** The buffer's vector view: declared on first use, at the buffer's binding. */
  private int view(BufferDecl buffer) {
    return views.computeIfAbsent(buffer.name(), name -> {
      SpirvModule module = writer.module();
      int struct = blocks.computeIfAbsent(buffer.element(), element -> {
        int array = module.type(SpvOpTypeRuntimeArray, vectorType(element));
        module.decorate(array, SpvDecorationArrayStride, width(element) * element.bytes());
        int block = module.id();
        module.globals.op(SpvOpTypeStruct, block, array);
        module.decorate(block, SpvDecorationBlock);
        module.decorateMember(block, 0, SpvDecorationOffset, 0);
        return block;
      });
      int variable = writer.globalVariable(SpvStorageClassStorageBuffer, struct);
      module.name(variable, name + "4");
      module.decorate(variable, SpvDecorationDescriptorSet, 0);
      module.decorate(variable, SpvDecorationBinding, buffer.binding());
      if (buffer.access() == Access.READ) {
        module.decorate(variable, SpvDecorationNonWritable);
      }
      return variable;
    });
  }
}
