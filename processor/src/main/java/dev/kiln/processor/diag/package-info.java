/**
 * Diagnostics: the catalogue of messages, each with its id and {@code Fix:}, and how they are
 * reported on the narrowest tree javac has.
 */
package dev.kiln.processor.diag;
