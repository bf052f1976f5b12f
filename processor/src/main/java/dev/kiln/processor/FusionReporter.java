package dev.kiln.processor;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.processor.diag.Diagnostic;
import dev.kiln.processor.diag.Diagnostics;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.Workgroup;
import dev.kiln.processor.lower.Sites;
import dev.kiln.processor.model.KernelSignature;
import dev.kiln.processor.pass.fuse.Fusion;
import dev.kiln.processor.pass.fuse.FusionError;
import java.util.List;

/**
 * Reports fusion errors as javac errors: an aliasing error at the later arm's conflicting access,
 * every other error on the offending arm's {@code @FuseGroup} annotation.
 */
final class FusionReporter {
  private final Trees trees;
  private final Diagnostics diagnostics;
  private final Sites sites;
  private final List<KernelSignature> arms;

  FusionReporter(Trees trees, Diagnostics diagnostics, Sites sites, List<KernelSignature> arms) {
    this.trees = trees;
    this.diagnostics = diagnostics;
    this.sites = sites;
    this.arms = List.copyOf(arms);
  }

  void report(List<FusionError> errors) {
    for (FusionError error : errors) {
      switch (error) {
        case FusionError.Aliasing aliasing -> {
          FusionError.ArmAccess earlier = aliasing.earlierAccess();
          FusionError.ArmAccess later = aliasing.laterAccess();
          String reason =
              earlier.range() || later.range()
                  ? "through System.arraycopy, whose range Kiln takes as reaching any element"
                  : aliasing.analyzable()
                      ? "which reaches elements of other invocations"
                      : "at an index Kiln cannot prove to be the invocation's own or its workgroup's (it follows sums and"
                          + " constant multiples of ids, constants, int scalars, lengths and locals assigned once; row-major"
                          + " indices such as row * cols + col where a guard keeps col below cols; strided columns such as"
                          + " p + n * k with p below n and k a bounded loop counter; and loop counters bounded inside the"
                          + " workgroup's range)";
          Tree at = sites.tree(later.site());
          diagnostics.error(
              at,
              sites.unit(later.site()),
              Errors.fusionAliasing(
                  aliasing.buffer(),
                  aliasing.group(),
                  earlier.arm(),
                  earlier.kernel(),
                  earlier.site().line(),
                  earlier.kind().verb(),
                  source(sites.tree(earlier.site())),
                  later.arm(),
                  later.kernel(),
                  later.site().line(),
                  later.kind().verb(),
                  source(at),
                  reason));
        }
        case FusionError.SelfAliasing self ->
            onGroup(
                self,
                Errors.fusionSelfAliasing(self.kernel(), self.first(), self.arm(), self.group()));
        case FusionError.OverDispatch over ->
            onGroup(
                over,
                Errors.fusionOverDispatch(
                    over.group(),
                    shape(over.fused()),
                    over.fusedInvocations(),
                    Fusion.OVER_DISPATCH_LIMIT,
                    over.largestInvocations(),
                    over.largestArm(),
                    over.largestKernel(),
                    over.arm(),
                    over.kernel()));
        case FusionError.WorkgroupGeometry geometry ->
            onGroup(
                geometry,
                Errors.fusionWorkgroupGeometry(
                    geometry.group(),
                    geometry.arm(),
                    geometry.kernel(),
                    shape(geometry.fused()),
                    shape(geometry.own()),
                    geometry.reason()));
        case FusionError.TypeConflict conflict ->
            onGroup(
                conflict,
                Errors.fusionTypeConflict(
                    conflict.name(),
                    conflict.otherType(),
                    conflict.other(),
                    conflict.otherKernel(),
                    conflict.type(),
                    conflict.arm(),
                    conflict.kernel(),
                    conflict.group()));
        case FusionError.Matrices matrices ->
            onGroup(
                matrices,
                Errors.fusionMatrices(matrices.group(), matrices.arm(), matrices.kernel()));
      }
    }
  }

  /** The access as written, e.g. {@code y[i + 1]}; an atomic call as the element it updates. */
  private static String source(Tree tree) {
    if (tree instanceof MethodInvocationTree call && call.getArguments().size() >= 2) {
      return call.getArguments().get(0) + "[" + call.getArguments().get(1) + "]";
    }
    return tree.toString();
  }

  /** {@code {64}}, {@code {16, 16}}: a workgroup as {@code @Kernel} writes it. */
  static String shape(Workgroup workgroup) {
    if (workgroup.z() > 1) {
      return "{" + workgroup.x() + ", " + workgroup.y() + ", " + workgroup.z() + "}";
    }
    return workgroup.y() > 1
        ? "{" + workgroup.x() + ", " + workgroup.y() + "}"
        : "{" + workgroup.x() + "}";
  }

  private void onGroup(FusionError error, Diagnostic diagnostic) {
    KernelSignature arm = arms.get(error.arm());
    TreePath method = trees.getPath(arm.method());
    AnnotationTree annotation = fuseGroupAnnotation(method, error.group(), occurrence(error.arm()));
    if (annotation == null) {
      diagnostics.error(arm.method(), diagnostic);
    } else {
      diagnostics.error(annotation, method.getCompilationUnit(), diagnostic);
    }
  }

  /** How many earlier arms of the group are the same kernel as arm {@code arm}. */
  private int occurrence(int arm) {
    String kernel = arms.get(arm).name();
    int count = 0;
    for (int k = 0; k < arm; k++) {
      count += arms.get(k).name().equals(kernel) ? 1 : 0;
    }
    return count;
  }

  /** The {@code n}-th {@code @FuseGroup} of {@code method} naming {@code group}, or null. */
  private static AnnotationTree fuseGroupAnnotation(TreePath method, String group, int n) {
    if (method == null || !(method.getLeaf() instanceof MethodTree tree)) {
      return null;
    }
    int seen = 0;
    for (AnnotationTree annotation : tree.getModifiers().getAnnotations()) {
      String type = annotation.getAnnotationType().toString();
      if ((type.equals("FuseGroup") || type.endsWith(".FuseGroup"))
          && names(annotation, group)
          && seen++ == n) {
        return annotation;
      }
    }
    return null;
  }

  private static boolean names(AnnotationTree annotation, String group) {
    for (ExpressionTree argument : annotation.getArguments()) {
      ExpressionTree value = argument;
      if (argument instanceof AssignmentTree assignment) {
        if (!assignment.getVariable().toString().equals("value")) {
          continue;
        }
        value = assignment.getExpression();
      }
      return !(value instanceof LiteralTree literal) || group.equals(literal.getValue());
    }
    return false;
  }
}
