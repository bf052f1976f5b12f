package dev.kiln.processor;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.annotations.Access;
import dev.kiln.abi.LaunchAbi;
import dev.kiln.annotations.Kernel;
import dev.kiln.processor.analysis.Facts;
import dev.kiln.processor.check.CheckError;
import dev.kiln.processor.check.Checks;
import dev.kiln.processor.cpu.CpuTwins;
import dev.kiln.processor.diag.Diagnostics;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.lower.Attribution;
import dev.kiln.processor.lower.KernelLowering;
import dev.kiln.processor.lower.Sites;
import dev.kiln.processor.model.GroupSignature;
import dev.kiln.processor.model.KernelSignature;
import dev.kiln.processor.pass.AccessInference;
import dev.kiln.processor.pass.Passes;
import dev.kiln.processor.pass.Vectorize;
import dev.kiln.processor.pass.fuse.Arm;
import dev.kiln.processor.pass.fuse.Fusion;
import dev.kiln.processor.spirv.SpirvWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.nio.file.Path;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Compiles kernel bodies once javac has attributed them. When a class finishes analysis, each of
 * its pending kernel classes (itself and its member classes) goes through the pipeline: every
 * kernel is lowered to IR (reporting what the kernel language lacks), checked (declared buffer
 * access, barriers in uniform control flow), given its inferred buffer accesses, then gated and
 * written as SPIR-V; each fuse group's checked arms are fused and written as one module, or its
 * fusion errors reported. Nothing thrown here reaches javac: an unexpected failure becomes one error on
 * the kernel or group.
 */
final class KernelBodyCompiler implements TaskListener {
  /**
   * The largest module Kiln writes: random kernels whose helpers inline into one another made
   * modules of up to 12 MB, one of which took lavapipe 201 s to compile, past the fence timeout.
   */
  static final int MAX_MODULE_BYTES = 1 << 20;

  private final Filer filer;
  private final Elements elements;
  private final Trees trees;
  private final Diagnostics diagnostics;
  private final LocalKernelScanner localKernels;
  private final List<PendingClass> pending = new ArrayList<>();
  private final Attribution attribution = new Attribution();
  private final boolean vectorize;
  /** Where {@code -Akiln.dump} asks for each program's IR and module; null for nowhere. */
  private final Path dump;

  /** The kernels and groups of one class, waiting for the class to be analyzed. */
  private record PendingClass(String owner, List<KernelSignature> kernels, List<GroupSignature> groups) {}

  /**
   * @param vectorize whether qualifying programs get 4 elements per invocation ({@code -Akiln.vectorize})
   * @param dump the folder {@code -Akiln.dump} names, or null
   */
  KernelBodyCompiler(Filer filer, Elements elements, Trees trees, Diagnostics diagnostics, boolean vectorize,
      Path dump) {
    this.vectorize = vectorize;
    this.dump = dump;
    this.filer = filer;
    this.elements = elements;
    this.trees = trees;
    this.diagnostics = diagnostics;
    this.localKernels = new LocalKernelScanner(trees, diagnostics);
  }

  /** The top-level classes of a processing round, which javac compiles from source. */
  void compiledFromSource(java.util.Set<? extends Element> roots) {
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
        compile(owner);
      }
    }
  }

  private void compile(PendingClass owner) {
    Sites sites = new Sites();
    Map<String, KernelSignature> kernels = new LinkedHashMap<>();
    Map<String, Program> programs = new LinkedHashMap<>();
    List<CpuTwins.Source> twins = new ArrayList<>();
    for (KernelSignature declared : owner.kernels()) {
      KernelSignature kernel = current(declared);
      kernels.put(kernel.name(), kernel);
      lowerAndCheck(kernel, sites).ifPresent(program -> {
        programs.put(kernel.name(), program);
        write(kernel.method(), kernel.packageName(), kernel.moduleResource(), "kernel " + kernel.name(),
            () -> Passes.kernel(program, vectorize));
        twins.add(twin(kernel.owner(), kernel.name(), false, program, kernel.params()));
      });
    }
    for (GroupSignature group : owner.groups()) {
      List<KernelSignature> arms = group.arms().stream().map(arm -> kernels.get(arm.name())).toList();
      if (arms.stream().allMatch(arm -> programs.containsKey(arm.name()))) {
        fuse(group, arms, programs, sites).ifPresent(fused ->
            twins.add(twin(arms.getFirst().owner(), group.name(), true, fused, group.params())));
      }
    }
    if (!twins.isEmpty()) {
      writeTwins(owner.kernels().getFirst().owner(), twins);
    }
  }

  private CpuTwins.Source twin(TypeElement owner, String name, boolean group, Program program,
      List<KernelSignature.Param> params) {
    return new CpuTwins.Source(LaunchAbi.twinMethod(name, group), program, group,
        params.stream().map(KernelSignature.Param::name).toList(), elements.getBinaryName(owner) + "#" + name);
  }

  /**
   * Writes the CPU twins of one class's kernels and groups; one that cannot be made is left to the
   * CPU backend's method path, said in the dump.
   */
  private void writeTwins(TypeElement owner, List<CpuTwins.Source> twins) {
    String binaryName = elements.getBinaryName(owner) + LaunchAbi.TWINS_SUFFIX;
    try {
      String sourceFile = java.nio.file.Path.of(trees.getPath(owner).getCompilationUnit().getSourceFile().toUri()
          .getPath()).getFileName().toString();
      CpuTwins.Written written = CpuTwins.write(binaryName, sourceFile, twins);
      if (written.classFile() != null) {
        // a resource rather than a class file: javac warns of a type made in the last round of processing
        String packageName = elements.getPackageOf(owner).getQualifiedName().toString();
        String simpleName = binaryName.substring(packageName.isEmpty() ? 0 : packageName.length() + 1);
        try (OutputStream out = filer.createResource(StandardLocation.CLASS_OUTPUT, packageName, simpleName + ".class",
            owner).openOutputStream()) {
          out.write(written.classFile());
        }
      }
      if (dump != null && !written.leftOut().isEmpty()) {
        KernelDump.twinsLeftOut(dump, binaryName, written.leftOut());
      }
    } catch (IOException e) {
      diagnostics.warning(owner, "Kiln could not write the CPU twins " + binaryName + ": " + e
          + "; the CPU backend runs the kernel methods themselves");
    } catch (RuntimeException e) {
      diagnostics.error(owner, Errors.internal("the CPU twins of " + owner.getSimpleName(), e));
    }
  }

  /**
   * The kernel lowered and checked, with each buffer's access declared or inferred; empty after
   * reporting every error lowering and the checks found.
   */
  private Optional<Program> lowerAndCheck(KernelSignature kernel, Sites sites) {
    TreePath path = trees.getPath(kernel.method());
    if (path == null) {
      diagnostics.error(kernel.method(), Errors.internal(kernel.name(), "javac has no source tree for it"));
      return Optional.empty();
    }
    CompilationUnitTree unit = path.getCompilationUnit();
    try {
      KernelLowering lowering = new KernelLowering(trees, unit, diagnostics, kernel, sites, attribution);
      Program lowered = lowering.lower(path);
      Map<String, Access> declared = new HashMap<>();
      kernel.params().forEach(param -> param.declared().ifPresent(access -> declared.put(param.name(), access)));
      Facts facts = Facts.of(lowered);
      List<CheckError> errors = Checks.run(lowered, facts, declared);
      for (CheckError error : errors) {
        diagnostics.error(sites.tree(error.site()), sites.unit(error.site()), error.diagnostic());
      }
      if (!lowering.failed() && errors.isEmpty()) {
        for (CheckError warning : Checks.warnings(lowered)) {
          diagnostics.warning(sites.tree(warning.site()), sites.unit(warning.site()), warning.diagnostic());
        }
      }
      return lowering.failed() || !errors.isEmpty()
          ? Optional.empty()
          : Optional.of(AccessInference.apply(lowered, facts, declared.keySet()));
    } catch (OutOfMemoryError e) {
      diagnostics.error(path.getLeaf(), unit, Errors.outOfMemory("kernel " + kernel.name(), heapMegabytes()));
      return Optional.empty();
    } catch (RuntimeException | StackOverflowError e) {
      diagnostics.error(path.getLeaf(), unit, Errors.internal(kernel.name(), e));
      return Optional.empty();
    }
  }

  /**
   * Fuses a group whose arms all lowered; writes its module and returns the fused program, or
   * reports why it cannot be fused.
   */
  private Optional<Program> fuse(GroupSignature group, List<KernelSignature> arms, Map<String, Program> programs,
      Sites sites) {
    KernelSignature first = arms.getFirst();
    try {
      List<Arm> lowered = arms.stream()
          .map(arm -> new Arm(arm.name(), arm.selfComposable(), programs.get(arm.name())))
          .toList();
      switch (Fusion.fuse(group.name(), lowered)) {
        case Fusion.Result.Fused fused -> {
          write(first.method(), first.packageName(), group.moduleResource(), "group " + group.name(),
              () -> Passes.finish(fused.program(), vectorize));
          return Optional.of(fused.program());
        }
        case Fusion.Result.Refused refused -> new FusionReporter(trees, diagnostics, sites, arms)
            .report(refused.errors());
      }
    } catch (OutOfMemoryError e) {
      diagnostics.error(first.method(), Errors.outOfMemory("group " + group.name(), heapMegabytes()));
    } catch (RuntimeException | StackOverflowError e) {
      diagnostics.error(first.method(), Errors.internal("group " + group.name(), e));
    }
    return Optional.empty();
  }

  /**
   * The kernel with its elements as javac has them now: javac enters the classes anew after the
   * last round, and the elements of a round no longer lead to attributed trees.
   */
  private KernelSignature current(KernelSignature kernel) {
    TypeElement owner = elements.getTypeElement(kernel.owner().getQualifiedName());
    if (owner == null) {
      return kernel;
    }
    return ElementFilter.methodsIn(owner.getEnclosedElements()).stream()
        .filter(method -> method.getSimpleName().contentEquals(kernel.name()) && method.getAnnotation(Kernel.class) != null)
        .findFirst()
        .map(method -> kernel.rebind(owner, method))
        .orElse(kernel);
  }

  /**
   * Writes the module of the program {@code passes} make as a class-output resource (and the dump,
   * where one is asked for); what fails is reported on {@code origin}.
   */
  private void write(Element origin, String packageName, String resource, String what,
      Supplier<Vectorize.Decision> passes) {
    try {
      Vectorize.Decision decision = passes.get();
      byte[] module = SpirvWriter.write(decision.program());
      if (module.length > MAX_MODULE_BYTES) {
        diagnostics.error(origin, Errors.moduleSize(what, module.length, MAX_MODULE_BYTES));
        return;
      }
      FileObject file = filer.createResource(StandardLocation.CLASS_OUTPUT, packageName, resource, origin);
      try (OutputStream out = file.openOutputStream()) {
        out.write(module);
      }
      if (dump != null) {
        try {
          KernelDump.write(dump, packageName, resource, what, decision, module);
        } catch (IOException e) {
          diagnostics.warning(origin, "Kiln could not write the dump of " + what + " to " + dump + ": " + e);
        }
      }
    } catch (IOException e) {
      diagnostics.error(origin, Errors.internal(what, "cannot write " + resource + ": " + e));
    } catch (OutOfMemoryError e) {
      diagnostics.error(origin, Errors.outOfMemory(what, heapMegabytes()));
    } catch (RuntimeException | StackOverflowError e) {
      diagnostics.error(origin, Errors.internal(what, e));
    }
  }

  /**
   * The heap's limit, for {@link Message#OUT_OF_MEMORY}: the kernel's trees are unreachable once its
   * compile has unwound, so javac goes on with the next kernel.
   */
  private static long heapMegabytes() {
    return Runtime.getRuntime().maxMemory() >> 20;
  }
}
