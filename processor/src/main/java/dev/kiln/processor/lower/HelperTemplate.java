package dev.kiln.processor.lower;

import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Stmt;
import java.util.List;

/**
 * A helper of some class lowered once, when javac analyzed that class, for the kernels of other
 * classes to link ({@link HelperLinker}): every local, label, private and workgroup array in it is
 * copied fresh at each call.
 *
 * @param key the method, as {@link Stmt.Call#helper()} names it
 * @param name {@code Util.f}, for messages
 * @param parameters the locals of its scalar parameters, in order
 * @param arrays the stand-ins of its array parameters, in order
 * @param result the local its value goes to; null for a void helper
 * @param body the statements, its returns leaving them
 * @param locals every local of the body, {@code parameters} and {@code result} among them
 * @param privates its private arrays
 * @param shared the workgroup arrays it declares (each call declares its own)
 * @param failed whether some statement could not be lowered: the errors held with the template tell
 *     which, and the body lacks those statements
 */
record HelperTemplate(
    String key,
    String name,
    List<Local> parameters,
    List<BufferDecl> arrays,
    Local result,
    List<Stmt> body,
    List<Local> locals,
    List<PrivateArray> privates,
    List<SharedArray> shared,
    boolean failed) {
  HelperTemplate {
    parameters = List.copyOf(parameters);
    arrays = List.copyOf(arrays);
    body = List.copyOf(body);
    locals = List.copyOf(locals);
    privates = List.copyOf(privates);
    shared = List.copyOf(shared);
  }
}
