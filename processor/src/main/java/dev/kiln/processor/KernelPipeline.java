package dev.kiln.processor;

import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.abi.LaunchAbi;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Kernel;
import dev.kiln.processor.analysis.Analysis;
import dev.kiln.processor.check.CheckError;
import dev.kiln.processor.check.Checks;
import dev.kiln.processor.check.RacyUpdates;
import dev.kiln.processor.cpu.CpuTwins;
import dev.kiln.processor.diag.Diagnostic;
import dev.kiln.processor.diag.Diagnostics;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.Walk;
import dev.kiln.processor.lower.Attribution;
import dev.kiln.processor.lower.HelperLinker;
import dev.kiln.processor.lower.HelperTemplates;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Compiles the kernels of each analyzed class, as javac's own pipeline goes from attribution to
 * generation: each kernel is lowered to IR while javac holds its attributed trees, reporting what
 * the kernel language lacks ({@link #lower}). Once javac has analyzed every class whose helpers it
 * calls, its calls of them are linked ({@link HelperLinker}) and it is checked and given its
 * inferred buffer accesses ({@link #check}); then gated, vectorized where it qualifies and written
 * as SPIR-V ({@link #emit}). Each fuse group whose arms all passed is fused and written the same
 * way, or its fusion errors reported. Every program handed on carries its {@link Analysis}, so no
 * analysis runs twice on one program. The CPU twins of all of them go out last. Nothing thrown here
 * reaches javac: an unexpected failure becomes one error on the kernel or group.
 */
final class KernelPipeline {
  /**
   * The largest module Kiln writes: random kernels whose helpers inline into one another made
   * modules of up to 12 MB, one of which took lavapipe 201 s to compile, past the fence timeout.
   */
  static final int MAX_MODULE_BYTES = 1 << 20;

  private final Elements elements;
  private final Trees trees;
  private final Diagnostics diagnostics;
  private final Attribution attribution;
  private final Outputs outputs;
  private final boolean vectorize;

  /** Where every IR node of the compilation came from, kernels' and helpers' alike. */
  private final Sites sites;

  private final HelperLinker linker;

  /**
   * Classes lowered whose helpers of other classes are not all lowered yet, in the order javac
   * analyzed them.
   */
  private final List<LoweredClass> waiting = new ArrayList<>();

  /**
   * @param templates the helpers of each class javac has analyzed, lowered for the kernels of
   *     others
   * @param vectorize whether qualifying programs get 4 elements per invocation ({@code
   *     -Akiln.vectorize})
   */
  KernelPipeline(
      Elements elements,
      Trees trees,
      Diagnostics diagnostics,
      Attribution attribution,
      Sites sites,
      HelperTemplates templates,
      Outputs outputs,
      boolean vectorize) {
    this.elements = elements;
    this.trees = trees;
    this.diagnostics = diagnostics;
    this.attribution = attribution;
    this.outputs = outputs;
    this.vectorize = vectorize;
    this.sites = sites;
    this.linker = new HelperLinker(templates, diagnostics, sites);
  }

  /**
   * Lowers the kernels of a class javac has just analyzed, while it holds their attributed trees.
   * The rest waits until javac has analyzed the class of every helper of another class they call
   * ({@link #finishReady}).
   */
  void lower(PendingClass owner) {
    Map<String, KernelSignature> kernels = new LinkedHashMap<>();
    List<Lowered> lowered = new ArrayList<>();
    for (KernelSignature declared : owner.kernels()) {
      KernelSignature kernel = current(declared);
      kernels.put(kernel.name(), kernel);
      lower(kernel).ifPresent(lowered::add);
    }
    waiting.add(new LoweredClass(owner, kernels, lowered));
    finishReady();
  }

  /**
   * Finishes each lowered class whose kernels can be linked now: javac has analyzed every class
   * they call into.
   */
  void finishReady() {
    for (Iterator<LoweredClass> it = waiting.iterator(); it.hasNext(); ) {
      LoweredClass next = it.next();
      if (next.kernels().stream()
          .allMatch(kernel -> linker.waitingFor(kernel.program()).isEmpty())) {
        it.remove();
        finish(next);
      }
    }
  }

  /**
   * Finishes every class still waiting, at the end of the compilation: a call into a class javac
   * never analyzed (it stopped early) is an error at the call.
   */
  void finishAll() {
    List<LoweredClass> rest = List.copyOf(waiting);
    waiting.clear();
    rest.forEach(this::finish);
  }

  /** A kernel as lowering left it, its calls of other classes' helpers not linked yet. */
  private record Lowered(KernelSignature kernel, TreePath path, Program program, boolean failed) {}

  /** The kernels of a class, each by name, and those lowered. */
  private record LoweredClass(
      PendingClass owner, Map<String, KernelSignature> byName, List<Lowered> kernels) {}

  /**
   * Links, checks and writes the kernels of a class, then fuses and writes its groups whose arms
   * all passed, and writes the CPU twins of all of them.
   */
  private void finish(LoweredClass lowered) {
    Map<String, Analysis> checked = new LinkedHashMap<>();
    List<CpuTwins.Source> twins = new ArrayList<>();
    for (Lowered kernel : lowered.kernels()) {
      KernelSignature signature = kernel.kernel();
      check(kernel)
          .ifPresent(
              analysis -> {
                checked.put(signature.name(), analysis);
                if (emit(
                    signature.method(),
                    signature.packageName(),
                    signature.moduleResource(),
                    "kernel " + signature.name(),
                    signature.params(),
                    () -> Passes.kernel(analysis.program(), vectorize))) {
                  twins.add(
                      twin(
                          signature.owner(),
                          signature.name(),
                          false,
                          analysis.program(),
                          signature.params()));
                }
              });
    }
    for (GroupSignature group : lowered.owner().groups()) {
      List<KernelSignature> arms =
          group.arms().stream().map(arm -> lowered.byName().get(arm.name())).toList();
      if (arms.stream().allMatch(arm -> checked.containsKey(arm.name()))) {
        fuse(group, arms, checked)
            .ifPresent(
                fused ->
                    twins.add(
                        twin(arms.getFirst().owner(), group.name(), true, fused, group.params())));
      }
    }
    if (!twins.isEmpty()) {
      outputs.twins(
          lowered.owner().kernels().getFirst().owner(),
          lowered.kernels().getFirst().path().getCompilationUnit(),
          twins);
    }
  }

  private CpuTwins.Source twin(
      TypeElement owner,
      String name,
      boolean group,
      Program program,
      List<KernelSignature.Param> params) {
    return new CpuTwins.Source(
        LaunchAbi.twinMethod(name, group),
        program,
        group,
        params.stream().map(KernelSignature.Param::name).toList(),
        elements.getBinaryName(owner) + "#" + name);
  }

  /**
   * The kernel lowered, reporting what the kernel language lacks; empty after an error that leaves
   * no program.
   */
  private Optional<Lowered> lower(KernelSignature kernel) {
    TreePath path = trees.getPath(kernel.method());
    if (path == null) {
      diagnostics.error(
          kernel.method(), Errors.internal(kernel.name(), "javac has no source tree for it"));
      return Optional.empty();
    }
    return guarded(
        kernel,
        path,
        () -> {
          KernelLowering lowering =
              new KernelLowering(
                  trees, path.getCompilationUnit(), diagnostics, kernel, sites, attribution);
          Program program = lowering.lower(path);
          return new Lowered(kernel, path, program, lowering.failed());
        });
  }

  /**
   * The kernel linked and checked, with each buffer's access declared or inferred, and its
   * analyses; empty after reporting every error lowering, linking and the checks found.
   */
  private Optional<Analysis> check(Lowered kernel) {
    return guarded(
        kernel.kernel(),
        kernel.path(),
        () -> {
          HelperLinker.Linked linked = linker.link(kernel.program());
          Analysis lowered = Analysis.of(linked.program());
          Map<String, Access> declared = new HashMap<>();
          kernel
              .kernel()
              .params()
              .forEach(
                  param ->
                      param.declared().ifPresent(access -> declared.put(param.name(), access)));
          List<CheckError> errors = Checks.run(lowered, declared);
          for (CheckError error : errors) {
            diagnostics.error(
                operand(sites.tree(error.site()), error.operand()),
                sites.unit(error.site()),
                error.diagnostic());
          }
          Optional<Expr.BuiltinGet> hidden = hiddenAxisRead(kernel.kernel(), linked.program());
          hidden.ifPresent(
              read ->
                  diagnostics.error(
                      kernel.kernel().method(),
                      Errors.launchHiddenAxis(
                          kernel.kernel().name(), read.builtin().intrinsic(), read.axis())));
          if (kernel.failed() || linked.failed() || !errors.isEmpty() || hidden.isPresent()) {
            return null;
          }
          RacyUpdates.Result races = Checks.warnings(lowered);
          for (CheckError warning : races.warnings()) {
            if (!suppressed(kernel.kernel().method(), warning.diagnostic().message().id())) {
              diagnostics.warning(
                  sites.tree(warning.site()), sites.unit(warning.site()), warning.diagnostic());
            }
          }
          return Analysis.of(
              AccessInference.apply(lowered, declared.keySet())
                  .withLaunchBounds(races.launchBounds()));
        });
  }

  /**
   * A read of axis y or z in a kernel whose launcher takes counts: one in a helper {@code
   * AxisReads} could not follow before attribution.
   */
  private static Optional<Expr.BuiltinGet> hiddenAxisRead(KernelSignature kernel, Program program) {
    if (kernel.takesGrids()) {
      return Optional.empty();
    }
    List<Expr.BuiltinGet> reads = new ArrayList<>();
    Walk.expressions(
        program.body(),
        expression -> {
          if (expression instanceof Expr.BuiltinGet read && read.axis() > 0) {
            reads.add(read);
          }
        });
    return reads.stream().findFirst();
  }

  /**
   * The part of {@code tree} a check error names: itself, an array access's index, or a call's
   * argument.
   */
  private static Tree operand(Tree tree, int operand) {
    return switch (tree) {
      case com.sun.source.tree.ArrayAccessTree access when operand == CheckError.INDEX ->
          access.getIndex();
      case com.sun.source.tree.MethodInvocationTree call
          when operand >= 0 && operand < call.getArguments().size() ->
          call.getArguments().get(operand);
      default -> tree;
    };
  }

  /**
   * What {@code step} makes of the kernel; empty if it makes null, runs out of memory or fails,
   * reported on the kernel.
   */
  private <T> Optional<T> guarded(KernelSignature kernel, TreePath path, Supplier<T> step) {
    return contained(
        kernel.name(),
        "kernel " + kernel.name(),
        error -> diagnostics.error(path.getLeaf(), path.getCompilationUnit(), error),
        step);
  }

  /**
   * What {@code step} makes; empty where it makes null, or where it runs out of memory or fails:
   * then {@code report} gets {@code kiln.kernel.outOfMemory} for {@code program} or {@code
   * kiln.internal} for {@code where}. The processor never crashes javac.
   */
  private <T> Optional<T> contained(
      Object where, String program, Consumer<Diagnostic> report, Supplier<T> step) {
    try {
      return Optional.ofNullable(step.get());
    } catch (OutOfMemoryError e) {
      report.accept(Errors.outOfMemory(program, heapMegabytes()));
    } catch (RuntimeException | StackOverflowError e) {
      report.accept(Errors.internal(where, e));
    }
    return Optional.empty();
  }

  /**
   * Whether {@code @SuppressWarnings} on the kernel or a class around it names the warning's id, as
   * javac's own lint names are suppressed: the programmer states that the indices differ.
   */
  private static boolean suppressed(Element kernel, String id) {
    for (Element at = kernel; at != null; at = at.getEnclosingElement()) {
      SuppressWarnings suppress = at.getAnnotation(SuppressWarnings.class);
      if (suppress != null && java.util.Arrays.asList(suppress.value()).contains(id)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Fuses a group whose arms all passed their checks; writes its module and returns the fused
   * program, or reports why it cannot be fused or written.
   */
  private Optional<Program> fuse(
      GroupSignature group, List<KernelSignature> arms, Map<String, Analysis> checked) {
    KernelSignature first = arms.getFirst();
    String what = "group " + group.name();
    return contained(
        what,
        what,
        error -> diagnostics.error(first.method(), error),
        () -> {
          List<Arm> fusedArms =
              arms.stream()
                  .map(arm -> new Arm(arm.name(), arm.selfComposable(), checked.get(arm.name())))
                  .toList();
          return switch (Fusion.fuse(group.name(), fusedArms)) {
            case Fusion.Result.Fused fused ->
                emit(
                        first.method(),
                        first.packageName(),
                        group.moduleResource(),
                        what,
                        group.params(),
                        () -> Passes.finish(fused.program(), vectorize))
                    ? fused.program()
                    : null;
            case Fusion.Result.Refused refused -> {
              new FusionReporter(trees, diagnostics, sites, arms).report(refused.errors());
              yield null;
            }
          };
        });
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
        .filter(
            method ->
                method.getSimpleName().contentEquals(kernel.name())
                    && method.getAnnotation(Kernel.class) != null)
        .findFirst()
        .map(method -> kernel.rebind(owner, method))
        .orElse(kernel);
  }

  /**
   * Runs the passes, analyzes the program they make once and writes it as SPIR-V, with its
   * description beside it; what fails is reported on {@code origin}, and then no CPU twin is
   * written either: the compile fails.
   */
  private boolean emit(
      Element origin,
      String packageName,
      String resource,
      String what,
      List<KernelSignature.Param> params,
      Supplier<Vectorize.Decision> passes) {
    return contained(
            what,
            what,
            error -> diagnostics.error(origin, error),
            () -> {
              Vectorize.Decision decision = passes.get();
              Analysis written = Analysis.of(decision.program());
              SpirvWriter.Written module = SpirvWriter.write(written);
              if (module.code().length > MAX_MODULE_BYTES) {
                diagnostics.error(
                    origin, Errors.moduleSize(what, module.code().length, MAX_MODULE_BYTES));
                return false;
              }
              try {
                outputs.module(
                    origin,
                    packageName,
                    resource,
                    what,
                    decision,
                    written,
                    module.code(),
                    Descriptions.of(written, module, params));
              } catch (IOException e) {
                diagnostics.error(
                    origin, Errors.internal(what, "cannot write " + resource + ": " + e));
                return false;
              }
              return true;
            })
        .orElse(false);
  }

  /**
   * The heap's limit, for {@code kiln.kernel.outOfMemory}: the kernel's trees are unreachable once
   * its compile has unwound, so javac goes on with the next kernel.
   */
  private static long heapMegabytes() {
    return Runtime.getRuntime().maxMemory() >> 20;
  }
}
