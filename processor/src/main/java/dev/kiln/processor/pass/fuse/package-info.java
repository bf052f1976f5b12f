/**
 * Fusion: the arms of a {@code @FuseGroup} into one program, refused with a {@code kiln.fusion.*}
 * error wherever the fused dispatch could compute something other than the arms run one after
 * another (aliasing, over-dispatch, workgroup geometry, self-aliasing, type conflicts).
 */
package dev.kiln.processor.pass.fuse;
