/**
 * The kernel IR: what lowering makes of a kernel body, what the checks, analyses and passes read
 * and rewrite, and what the SPIR-V writer and the CPU twins' writer translate. It is a tree of
 * records under sealed interfaces, so that every switch over it is exhaustive and a new node kind
 * is a compile error wherever it is not handled.
 *
 * <ul>
 *   <li>A {@link dev.kiln.processor.ir.Program} is one compute program: a kernel, or a fuse group's
 *       arms one after the other. It has buffers ({@link dev.kiln.processor.ir.BufferDecl}) and
 *       scalars ({@link dev.kiln.processor.ir.ScalarParam}) in launch order, a {@link
 *       dev.kiln.processor.ir.Workgroup}, and a body.
 *   <li>A body is a list of {@link dev.kiln.processor.ir.Stmt}s. Statements are Java's, made
 *       regular: one {@code Loop} for {@code for}, {@code while} and {@code do}; one {@code
 *       Switch}; stores, atomics and barriers as statements of their own. Blocks are plain lists.
 *   <li>An {@link dev.kiln.processor.ir.Expr} is pure: evaluating it twice, or not at all, changes
 *       nothing but the code's size. The one exception is {@link
 *       dev.kiln.processor.ir.Expr.Effect}: statements run before a value, which is how Java's
 *       assignments, increments and atomics inside expressions are kept in their order. {@code Let}
 *       binds a value once where it is used several times. Passes may therefore duplicate or drop
 *       any expression that holds no {@code Effect}.
 *   <li>A {@link dev.kiln.processor.ir.Local} is a variable, unique across all programs: locals are
 *       equal only when they are the same variable, so inlined helpers and fused arms merge without
 *       capture and without renaming. {@link dev.kiln.processor.ir.Label}s are compared by identity
 *       for the same reason.
 *   <li>A {@link dev.kiln.processor.ir.Site} says where a node came from: its source line (fault
 *       reports name it) and an id the processor maps back to the javac tree, so that a pass
 *       reports on the exact expression. Array accesses, atomics, barriers and faulting divisions
 *       carry one.
 *   <li>{@link dev.kiln.processor.ir.PushConstantBlock} lays the launch ABI out as the block's
 *       members; {@link dev.kiln.processor.ir.Walk} visits and {@link
 *       dev.kiln.processor.ir.Rewriter} rebuilds bodies; {@link dev.kiln.processor.ir.IrText}
 *       prints them for {@code -Akiln.dump}.
 * </ul>
 */
package dev.kiln.processor.ir;
