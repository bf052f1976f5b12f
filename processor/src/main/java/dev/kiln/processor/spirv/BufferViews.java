package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.annotations.Access;
import dev.kiln.processor.ir.BufferDecl;

/**
 * The variables of a buffer's binding: its declaration's decorations, and views of it as other
 * element types.
 */
final class BufferViews {
  private BufferViews() {}

  /**
   * Declares a view of {@code buffer}: a runtime array of {@code element}s, {@code stride} bytes
   * apart, at the buffer's binding, named {@code name}.
   */
  static int view(FunctionBuilder fn, BufferDecl buffer, int element, int stride, String name) {
    SpirvModule module = fn.module();
    int variable =
        fn.globalVariable(SpvStorageClassStorageBuffer, module.storageBlock(element, stride));
    module.name(variable, name);
    decorate(module, variable, buffer);
    return variable;
  }

  /**
   * Decorates a variable of {@code buffer}: its binding, NonWritable where it is only read, and
   * Aliased where a launch may pass the array of another buffer for it ({@link
   * SpirvModule#isAliased}), so that the driver keeps the invocation's own accesses of the two in
   * program order.
   */
  static void decorate(SpirvModule module, int variable, BufferDecl buffer) {
    module.decorate(variable, SpvDecorationDescriptorSet, 0);
    module.decorate(variable, SpvDecorationBinding, buffer.binding());
    if (buffer.access() == Access.READ) {
      module.decorate(variable, SpvDecorationNonWritable);
    }
    if (module.isAliased(buffer.binding())) {
      module.decorate(variable, SpvDecorationAliased);
    }
  }
}
