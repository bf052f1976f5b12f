package dev.kiln.processor;

import dev.kiln.processor.model.GroupSignature;
import dev.kiln.processor.model.KernelSignature;
import java.util.List;

/**
 * The kernels and groups of one class, waiting for javac to analyze the class.
 *
 * @param owner the class's qualified name
 * @param kernels its kernels, in declaration order
 * @param groups its fuse groups
 */
record PendingClass(String owner, List<KernelSignature> kernels, List<GroupSignature> groups) {}
