package dev.kiln.processor;

import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import dev.kiln.processor.diag.Diagnostics;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.lower.Attribution;
import dev.kiln.processor.lower.HelperTemplates;
import dev.kiln.processor.model.GroupSignature;
import dev.kiln.processor.model.KernelSignature;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

/**
 * The processor's view of javac's events. Once javac has analyzed a class (its trees are attributed
 * then, and not yet lowered) it lowers the class's helpers that kernels of other classes may call
 * ({@link HelperTemplates}) and hands each pending kernel class to the {@link KernelPipeline},
 * which lowers its kernels and finishes each class whose calls can all be linked. It also releases
 * the errors held back during the rounds and scans every analyzed class for kernels in local and
 * anonymous classes.
 */
final class KernelTaskListener implements TaskListener {
  private final Diagnostics diagnostics;
  private final LocalKernelScanner localKernels;
  private final Attribution attribution;
  private final HelperTemplates templates;
  private final KernelPipeline pipeline;
  private final List<PendingClass> pending = new ArrayList<>();

  KernelTaskListener(
      Diagnostics diagnostics,
      LocalKernelScanner localKernels,
      Attribution attribution,
      HelperTemplates templates,
      KernelPipeline pipeline) {
    this.diagnostics = diagnostics;
    this.localKernels = localKernels;
    this.attribution = attribution;
    this.templates = templates;
    this.pipeline = pipeline;
  }

  /** The top-level classes of a processing round, which javac compiles from source. */
  void compiledFromSource(Set<? extends Element> roots) {
    attribution.compiledFromSource(roots);
  }

  /** Kernels and groups of one class, to compile when the class has been analyzed. */
  void expect(TypeElement owner, List<KernelSignature> kernels, List<GroupSignature> groups) {
    pending.add(new PendingClass(owner.getQualifiedName().toString(), kernels, groups));
  }

  @Override
  public void finished(TaskEvent event) {
    if (event.getKind() == TaskEvent.Kind.ANALYZE
        || event.getKind() == TaskEvent.Kind.COMPILATION) {
      diagnostics.releaseHeldErrors(); // javac has gone past the rounds (see Diagnostics)
    }
    if (event.getKind() == TaskEvent.Kind.COMPILATION) {
      pipeline.finishAll();
    }
    if (event.getKind() != TaskEvent.Kind.ANALYZE || event.getTypeElement() == null) {
      return;
    }
    TypeElement type = event.getTypeElement();
    try {
      localKernels.scan(type);
      templates.analyzed(type);
    } catch (RuntimeException | StackOverflowError e) {
      diagnostics.error(type, Errors.internal("in " + type.getSimpleName(), e));
    }
    String analyzed = type.getQualifiedName().toString();
    for (Iterator<PendingClass> it = pending.iterator(); it.hasNext(); ) {
      PendingClass owner = it.next();
      if (owner.owner().equals(analyzed) || owner.owner().startsWith(analyzed + ".")) {
        it.remove();
        pipeline.lower(owner);
      }
    }
    pipeline.finishReady();
  }
}
