package dev.kiln.processor.lower;

import dev.kiln.processor.ir.Label;
import dev.kiln.processor.ir.Local;

/**
 * Where a {@code return} of an inlined helper or a {@code yield} of a switch expression goes: the
 * labelled run-once block it breaks out of, and the local that takes its value (null for none).
 */
record Exit(Label label, Local result) {}
