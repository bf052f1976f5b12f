/**
 * What the processor knows of kernels before their bodies: signatures (parameters, workgroup,
 * declared access) read from the annotated methods, and the fuse groups they form, with the
 * launcher names; the errors found there.
 */
package dev.kiln.processor.model;
