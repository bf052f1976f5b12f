package dev.kiln.processor.pass.fuse;

import dev.kiln.processor.ir.Program;

/** One arm of a fuse group: a kernel's program, as lowered and before any pass. */
public record Arm(String kernel, boolean selfComposable, Program program) {}
