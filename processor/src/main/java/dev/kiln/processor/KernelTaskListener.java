package dev.kiln.processor;

import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import dev.kiln.processor.diag.Diagnostics;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.lower.Attribution;
import dev.kiln.processor.model.GroupSignature;
import dev.kiln.processor.model.KernelSignature;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

/**
 * The processor's view of javac's events. It tracks which classes javac has attributed and which
 * it has lowered already ({@link Attribution}), and hands each pending kernel class to the
 * {@link KernelPipeline} once javac has analyzed it: its trees are attributed then, and not yet
 * lowered. It also releases the errors held back during the rounds and scans every analyzed class
 * for kernels in local and anonymous classes.
 */
final class KernelTaskListener implements TaskListener {
  private final Diagnostics diagnostics;
  private final LocalKernelScanner localKernels;
  private final Attribution attribution;
  private final KernelPipeline pipeline;
  private final List<PendingClass> pending = new ArrayList<>();

  KernelTaskListener(Diagnostics diagnostics, LocalKernelScanner localKernels, Attribution attribution,
      KernelPipeline pipeline) {
    this.diagnostics = diagnostics;
    this.localKernels = localKernels;
    this.attribution = attribution;
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
  public void started(TaskEvent event) {
    if (event.getTypeElement() == null) {
      return;
    }
    switch (event.getKind()) {
      case ANALYZE -> attribution.analysisStarted(event.getTypeElement());
      case GENERATE -> attribution.generationStarted(event.getTypeElement());
      default -> {}
    }
  }

  @Override
  public void finished(TaskEvent event) {
    if (event.getKind() == TaskEvent.Kind.ANALYZE || event.getKind() == TaskEvent.Kind.COMPILATION) {
      diagnostics.releaseHeldErrors(); // javac has gone past the rounds (see Diagnostics)
    }
    if (event.getKind() != TaskEvent.Kind.ANALYZE || event.getTypeElement() == null) {
      return;
    }
    try {
      localKernels.scan(event.getTypeElement());
    } catch (RuntimeException | StackOverflowError e) {
      diagnostics.error(event.getTypeElement(), Errors.internal("in " + event.getTypeElement().getSimpleName(), e));
    }
    String analyzed = event.getTypeElement().getQualifiedName().toString();
    for (Iterator<PendingClass> it = pending.iterator(); it.hasNext(); ) {
      PendingClass owner = it.next();
      if (owner.owner().equals(analyzed) || owner.owner().startsWith(analyzed + ".")) {
        it.remove();
        pipeline.compile(owner);
      }
    }
  }
}
