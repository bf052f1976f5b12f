package dev.kiln.processor.lower;

import com.sun.source.tree.CompilationUnitTree;
import dev.kiln.annotations.Access;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Fragment;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.ScalarParam;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Site;
import dev.kiln.processor.model.KernelSignature;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Element;

/**
 * The names a kernel body can see: its buffers, its scalars, its shared and private arrays, and its
 * locals.
 */
final class Scope {
  private final Map<String, BufferDecl> buffers = new LinkedHashMap<>();
  private final Map<String, ScalarParam> scalars = new LinkedHashMap<>();
  private final List<SharedArray> shared = new ArrayList<>();
  private final List<PrivateArray> privates = new ArrayList<>();

  /** Variables of the kernel and of each helper being inlined, innermost last. */
  private final Deque<Frame> frames = new ArrayDeque<>(List.of(new Frame()));

  private final Deque<Element> inlining = new ArrayDeque<>();

  /**
   * The file of the kernel, then of each helper being inlined (a helper may be another class's),
   * innermost first.
   */
  private final Deque<CompilationUnitTree> units = new ArrayDeque<>();

  private final List<Local> declared = new ArrayList<>();
  private final Set<Element> rejected = new HashSet<>();

  /** The cooperative-matrix variables, by their declarations (helpers' included). */
  private final java.util.Map<Element, Fragment> fragments = new java.util.HashMap<>();

  Scope(KernelSignature signature, CompilationUnitTree unit) {
    units.push(unit);
    for (KernelSignature.Param param : signature.params()) {
      if (param.isBuffer()) {
        // READ_WRITE until the body shows what it does (pass.AccessInference)
        buffers.put(
            param.name(),
            new BufferDecl(
                param.name(),
                param.type(),
                param.declared().orElse(Access.READ_WRITE),
                buffers.size()));
      } else {
        scalars.put(param.name(), new ScalarParam(param.name(), param.type()));
      }
    }
  }

  Optional<BufferDecl> buffer(String name) {
    return Optional.ofNullable(buffers.get(name));
  }

  List<BufferDecl> buffers() {
    return List.copyOf(buffers.values());
  }

  /**
   * Declares workgroup array {@code array} for {@code element}, in the current frame: a helper
   * inlined twice declares two.
   */
  void share(Element element, SharedArray array) {
    shared.add(array);
    bindArray(element, new ArrayRef.Fixed(array));
  }

  /**
   * A name for a new workgroup array: {@code name}, or {@code name$2}, {@code $3} … where taken.
   */
  String sharedName(String name) {
    String unique = name;
    for (int k = 2; taken(unique); k++) {
      unique = name + "$" + k;
    }
    return unique;
  }

  private boolean taken(String name) {
    return shared.stream().anyMatch(array -> array.name().equals(name));
  }

  List<SharedArray> sharedArrays() {
    return List.copyOf(shared);
  }

  /** Declares a private array for {@code element}, in the current frame. */
  PrivateArray declarePrivate(Element element, String name, PrimType type, Expr length, Site site) {
    PrivateArray array = new PrivateArray(name + "$" + privates.size(), type, length, site);
    privates.add(array);
    bindArray(element, new ArrayRef.Fixed(array));
    return array;
  }

  List<PrivateArray> privateArrays() {
    return List.copyOf(privates);
  }

  Optional<ScalarParam> scalar(String name) {
    return Optional.ofNullable(scalars.get(name));
  }

  List<ScalarParam> scalars() {
    return List.copyOf(scalars.values());
  }

  /**
   * The variables of one inlined body: its locals, and a helper's parameters, bound to a local, an
   * argument expression (pure helpers) or an array.
   */
  private static final class Frame {
    final Map<Element, Local> locals = new HashMap<>();
    final Map<Element, Expr> arguments = new HashMap<>();
    final Map<Element, ArrayRef> arrays = new HashMap<>();
    final Map<Element, BufferAlias> aliases = new LinkedHashMap<>();
    final Map<Element, String> settings = new HashMap<>();
  }

  /**
   * Starts inlining {@code helper}: its variables are new ones, even where the same helper is
   * inlined twice. False, entering nothing, if {@code helper} is already being inlined (recursion).
   */
  boolean enterHelper(Element helper, CompilationUnitTree unit) {
    if (inlining.contains(helper)) {
      return false;
    }
    inlining.push(helper);
    frames.push(new Frame());
    units.push(unit);
    return true;
  }

  void exitHelper() {
    frames.pop();
    inlining.pop();
    units.pop();
  }

  /** The file whose trees are being lowered: the kernel's, or the innermost helper's. */
  CompilationUnitTree unit() {
    return units.getFirst();
  }

  /** Binds a pure helper's parameter to the argument expression. */
  void bindArgument(Element parameter, Expr argument) {
    frames.getFirst().arguments.put(parameter, argument);
  }

  /**
   * Binds a helper's array parameter to the array its caller passes, or a local to its private
   * array.
   */
  void bindArray(Element parameter, ArrayRef array) {
    frames.getFirst().arrays.put(parameter, array);
  }

  /**
   * Binds a helper's {@code MatrixElement} or {@code MatrixLayout} parameter to the name of the
   * constant its caller passes.
   */
  void bindSetting(Element parameter, String constant) {
    frames.getFirst().settings.put(parameter, constant);
  }

  /** The constant a helper's {@code MatrixElement} or {@code MatrixLayout} parameter holds. */
  Optional<String> setting(Element parameter) {
    return Optional.ofNullable(frames.getFirst().settings.get(parameter));
  }

  /** Declares a local array variable that names buffers, in the current frame. */
  void declareAlias(Element element, BufferAlias alias) {
    frames.getFirst().aliases.put(element, alias);
  }

  /** The current frame's local array variables that name buffers. */
  Map<Element, BufferAlias> aliasesByElement() {
    return java.util.Collections.unmodifiableMap(frames.getFirst().aliases);
  }

  /** Every frame's local array variables that name buffers. */
  List<BufferAlias> aliases() {
    List<BufferAlias> all = new ArrayList<>();
    frames.forEach(frame -> all.addAll(frame.aliases.values()));
    return all;
  }

  Optional<Expr> argument(Element parameter) {
    return Optional.ofNullable(frames.getFirst().arguments.get(parameter));
  }

  Optional<ArrayRef> arrayParameter(Element parameter) {
    return Optional.ofNullable(frames.getFirst().arrays.get(parameter));
  }

  /** A new local for {@code element}, named as in the source. */
  Local declare(Element element, String name, PrimType type) {
    Local local = Local.fresh(name, type);
    declared.add(local);
    frames.getFirst().locals.put(element, local);
    return local;
  }

  /** A new fragment for {@code element}, named as in the source. */
  Fragment declareFragment(Element element, String name, Fragment.Use use) {
    Fragment fragment = Fragment.fresh(name, use);
    fragments.put(element, fragment);
    return fragment;
  }

  Optional<Fragment> fragment(Element element) {
    return Optional.ofNullable(fragments.get(element));
  }

  /** A new local that no source variable names. */
  Local temporary(String name, PrimType type) {
    Local local = Local.fresh(name, type);
    declared.add(local);
    return local;
  }

  Optional<Local> local(Element element) {
    return Optional.ofNullable(frames.getFirst().locals.get(element));
  }

  /** Remembers a variable whose declaration was reported, so its uses are not reported again. */
  void reject(Element element) {
    rejected.add(element);
  }

  /** Takes back {@link #reject}. */
  void accept(Element element) {
    rejected.remove(element);
  }

  boolean isRejected(Element element) {
    return rejected.contains(element);
  }

  List<Local> locals() {
    return List.copyOf(declared);
  }
}
