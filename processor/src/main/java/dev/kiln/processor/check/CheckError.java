package dev.kiln.processor.check;

import dev.kiln.processor.diag.Diagnostic;
import dev.kiln.processor.ir.Site;

/** A catalogued error (or warning) a check found at {@code site}. */
public record CheckError(Site site, Diagnostic diagnostic) {}
