package dev.kiln.processor;

import com.google.auto.service.AutoService;
import com.sun.source.util.JavacTask;
import com.sun.source.util.Trees;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;
import dev.kiln.processor.diag.Diagnostics;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.launcher.LauncherWriter;
import dev.kiln.processor.lower.Attribution;
import dev.kiln.processor.lower.HelperNames;
import dev.kiln.processor.lower.HelperTemplates;
import dev.kiln.processor.lower.Sites;
import dev.kiln.processor.model.GroupSignature;
import dev.kiln.processor.model.Groups;
import dev.kiln.processor.model.KernelSignature;
import dev.kiln.processor.model.SignatureReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.FilerException;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.ModuleElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;

/**
 * Kiln's annotation processor. During the rounds it checks each {@code @Kernel} declaration,
 * collects the fuse groups of its class and writes the class's launcher; once javac has attributed
 * a class, {@link KernelTaskListener} hands it to the {@link KernelPipeline}, which compiles the
 * kernels' bodies and fuses the groups to SPIR-V, and {@link Outputs} writes what it made.
 */
@AutoService(Processor.class)
@SupportedAnnotationTypes({
  "dev.kiln.annotations.Kernel",
  "dev.kiln.annotations.FuseGroup",
  "dev.kiln.annotations.FuseGroup.List",
  "dev.kiln.annotations.Buffer",
  // the launchers' own, so that a build with -Xlint:processing finds every annotation claimed
  "javax.annotation.processing.Generated"
})
public final class KilnProcessor extends AbstractProcessor {
  private Diagnostics diagnostics;
  private SignatureReader signatures;
  private KernelTaskListener bodies;

  /** The names of the methods the kernels may call, read during the rounds. */
  private HelperNames helperNames;

  /**
   * The compiler running this processor where it is not javac: kernels then get {@code
   * kiln.compiler}.
   */
  private String otherCompiler;

  /** Launchers written, by qualified name, with the class whose kernels they launch. */
  private final Map<String, TypeElement> launchersWritten = new HashMap<>();

  /** {@code -Akiln.vectorize=false} compiles every kernel with one element per invocation. */
  static final String VECTORIZE = "kiln.vectorize";

  /**
   * {@code -Akiln.dump=<dir>} writes each kernel's and group's IR, module and disassembly there.
   */
  static final String DUMP = "kiln.dump";

  /** Made by javac, which finds the processor through {@code META-INF/services}. */
  public KilnProcessor() {}

  @Override
  public Set<String> getSupportedOptions() {
    return Set.of(VECTORIZE, DUMP);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public synchronized void init(ProcessingEnvironment environment) {
    super.init(environment);
    Trees trees;
    JavacTask task;
    try {
      trees = Trees.instance(environment);
      task = JavacTask.instance(environment);
    } catch (IllegalArgumentException | IllegalStateException notJavac) {
      String name = environment.getClass().getName();
      otherCompiler = name.contains("eclipse") ? "ecj, the Eclipse compiler" : name;
      return;
    }
    diagnostics = new Diagnostics(environment.getMessager(), trees);
    signatures = new SignatureReader(diagnostics, trees, environment.getElementUtils());
    boolean vectorize =
        !"false".equalsIgnoreCase(environment.getOptions().getOrDefault(VECTORIZE, "true"));
    String dump = environment.getOptions().get(DUMP);
    Outputs outputs =
        new Outputs(
            environment.getFiler(),
            environment.getElementUtils(),
            diagnostics,
            dump == null ? null : java.nio.file.Path.of(dump));
    Attribution attribution = new Attribution();
    Sites sites = new Sites();
    helperNames = new HelperNames(trees);
    HelperTemplates templates = new HelperTemplates(trees, helperNames, attribution, sites);
    KernelPipeline pipeline =
        new KernelPipeline(
            environment.getElementUtils(),
            trees,
            diagnostics,
            attribution,
            sites,
            templates,
            outputs,
            vectorize);
    bodies =
        new KernelTaskListener(
            diagnostics,
            new LocalKernelScanner(trees, diagnostics),
            attribution,
            templates,
            pipeline);
    task.addTaskListener(bodies);
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    if (otherCompiler
        != null) { // one error per kernel, on it: a build must not pass without launchers
      for (Element kernel : round.getElementsAnnotatedWith(Kernel.class)) {
        processingEnv
            .getMessager()
            .printMessage(
                Diagnostic.Kind.ERROR,
                Errors.notJavac(kernel.getSimpleName().toString(), otherCompiler).text(),
                kernel);
      }
      return true;
    }
    if (bodies == null) {
      return true;
    }
    bodies.compiledFromSource(round.getRootElements());
    helperNames.roots(round.getRootElements());
    Map<TypeElement, List<KernelSignature>> byOwner = new LinkedHashMap<>();
    for (Element element : round.getElementsAnnotatedWith(Kernel.class)) {
      if (element.getKind() != ElementKind.METHOD) {
        continue;
      }
      ExecutableElement method = (ExecutableElement) element;
      try {
        signatures
            .read(method)
            .ifPresent(
                signature ->
                    byOwner
                        .computeIfAbsent(signature.owner(), owner -> new ArrayList<>())
                        .add(signature));
        helperNames.kernel(method);
      } catch (RuntimeException e) {
        diagnostics.error(method, Errors.internal(method.getSimpleName(), e));
      }
    }
    for (Element element :
        round.getElementsAnnotatedWithAny(Set.of(FuseGroup.class, FuseGroup.List.class))) {
      if (element.getAnnotation(Kernel.class) == null) {
        diagnostics.error(element, Errors.groupWithoutKernel(element.getSimpleName()));
      }
    }
    byOwner.forEach(this::processClass);
    return true; // Kiln's annotations are Kiln's: claimed, so that -Xlint:processing has nothing to
    // say
  }

  private void processClass(TypeElement owner, List<KernelSignature> kernels) {
    List<KernelSignature> unique = withoutDuplicateNames(owner, kernels);
    List<GroupSignature> groups = Groups.of(unique, diagnostics);
    String launcher =
        unique.getFirst().packageName().isEmpty()
            ? unique.getFirst().launcherName()
            : unique.getFirst().packageName() + "." + unique.getFirst().launcherName();
    TypeElement earlier = launchersWritten.putIfAbsent(launcher, owner);
    if (earlier != null && earlier.getQualifiedName().contentEquals(owner.getQualifiedName())) {
      return; // the class came again in a later round
    }
    if (earlier != null) {
      diagnostics.error(
          owner, Errors.launcherName(launcher, "the launcher of " + earlier.getQualifiedName()));
      return;
    }
    try {
      LauncherWriter.launcher(owner, unique, groups, seesGenerated(owner))
          .writeTo(processingEnv.getFiler());
    } catch (FilerException e) {
      diagnostics.error(owner, Errors.launcherName(launcher, "an existing class"));
      return;
    } catch (IOException | RuntimeException e) {
      diagnostics.error(owner, Errors.internal(owner.getSimpleName() + " (launcher)", e));
      return;
    }
    bodies.expect(
        owner, unique,
        groups); // only a class whose launcher exists: its modules' names are its own
  }

  /**
   * Whether code in {@code owner}'s module can see {@code javax.annotation.processing.Generated}.
   */
  private boolean seesGenerated(TypeElement owner) {
    Elements elements = processingEnv.getElementUtils();
    ModuleElement module = elements.getModuleOf(owner);
    String generated = "javax.annotation.processing.Generated";
    return module == null
        ? elements.getTypeElement(generated) != null
        : elements.getTypeElement(module, generated) != null;
  }

  private List<KernelSignature> withoutDuplicateNames(
      TypeElement owner, List<KernelSignature> kernels) {
    Map<String, KernelSignature> byName = new LinkedHashMap<>();
    for (KernelSignature kernel : kernels) {
      Optional.ofNullable(byName.putIfAbsent(kernel.name(), kernel))
          .ifPresent(
              earlier ->
                  diagnostics.error(
                      kernel.method(),
                      Errors.kernelDuplicate(owner.getSimpleName(), kernel.name())));
    }
    return List.copyOf(byName.values());
  }
}
