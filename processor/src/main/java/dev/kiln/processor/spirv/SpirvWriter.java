package dev.kiln.processor.spirv;

import static org.lwjgl.util.spvc.Spv.*;

import dev.kiln.abi.DeviceFeature;
import dev.kiln.processor.analysis.AliasConflicts;
import dev.kiln.processor.analysis.Analysis;
import dev.kiln.processor.analysis.IndexBounds;
import dev.kiln.processor.ir.BufferDecl;
import dev.kiln.processor.ir.Expr;
import dev.kiln.processor.ir.Local;
import dev.kiln.processor.ir.PrivateArray;
import dev.kiln.processor.ir.Program;
import dev.kiln.processor.ir.PushConstantBlock;
import dev.kiln.processor.ir.SharedArray;
import dev.kiln.processor.ir.Stmt;
import dev.kiln.processor.ir.Walk;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a {@link Program} as a SPIR-V 1.3 compute module for Vulkan 1.1: logical addressing,
 * GLSL450 memory model, storage-buffer runtime arrays, a push-constant block ({@link
 * PushConstantBlock}) and structured control flow. The program's body says itself which invocations
 * do something (see {@code pass.Gate}). This class lays out the module and writes statements;
 * {@link FunctionBuilder} emits instructions, {@link LaunchValues} reads the launch, {@link
 * MemoryAccess} the arrays with their bounds checks and faults, {@link ExpressionWriter} values,
 * {@link VectorAccess} the vector loads and stores of a vectorized program, and {@link Copies}
 * {@code System.arraycopy}.
 */
public final class SpirvWriter {
  private final Program program;
  private final SpirvModule module = new SpirvModule();
  private final FunctionBuilder fn = new FunctionBuilder(module);
  private final LaunchValues launch;
  private final MemoryAccess memory;

  /** Lavapipe's loop limit, counted in a kernel with loops; null in one without. */
  private LoopLimit loopLimit;

  private final VectorAccess vectors;
  private final MatrixWriter matrices;
  private final Copies copies;
  private final Map<Local, Integer> localVariables = new HashMap<>();
  private final ExpressionWriter expressions;
  private final Deque<LoopTargets> loops = new ArrayDeque<>();

  /**
   * The memory {@code Gpu.barrier()} orders: workgroup memory always, and buffer memory where the
   * analysis says accesses on both sides can meet ({@link Analysis#barriersOrderBuffers}); leaving
   * buffer memory out makes the barrier GLSL's {@code barrier()}, which the H200 runs faster.
   */
  private final int barrierSemantics;

  /** Accesses proven in bounds, written without checks. */
  private final IndexBounds bounds;

  /**
   * Whether the program uses cooperative matrices: written for the Vulkan memory model, loops
   * counted before their test.
   */
  private final boolean usesMatrices;

  /**
   * Where {@code break} and {@code continue} of one loop or switch go ({@code next} is 0 for a
   * switch), and whether any did.
   */
  private static final class LoopTargets {
    final int merge;
    final int next;
    boolean broke;
    boolean continued;

    LoopTargets(int merge, int next) {
      this.merge = merge;
      this.next = next;
    }
  }

  private SpirvWriter(Analysis analysis) {
    this.program = analysis.program();
    this.usesMatrices = Walk.anyStatement(program.body(), Stmt.Matrix.class::isInstance);
    this.barrierSemantics =
        SpvMemorySemanticsAcquireReleaseMask
            | SpvMemorySemanticsWorkgroupMemoryMask
            | (analysis.barriersOrderBuffers() ? SpvMemorySemanticsUniformMemoryMask : 0);
    this.launch = new LaunchValues(fn, program);
    this.memory = new MemoryAccess(fn, program.boundsChecks(), Copies.quadArrays(program));
    this.copies = new Copies(fn, memory, analysis.multiples());
    this.vectors = new VectorAccess(fn, program.elementsPerInvocation());
    this.bounds = analysis.bounds();
    this.matrices = new MatrixWriter(fn, memory, this::value, analysis.multiples(), bounds);
    this.expressions =
        new ExpressionWriter(fn, launch, memory, localVariables, this::statements, bounds);
  }

  /**
   * A written module and what it needs of a device.
   *
   * @param code the module's binary
   * @param features the device features it needs
   * @param sharedBytes the workgroup memory it declares, in bytes, but for arrays a parameter sizes
   * @param sharedLengths the parameters that size workgroup arrays
   */
  public record Written(
      byte[] code,
      Set<DeviceFeature> features,
      long sharedBytes,
      List<ParameterLengths.Length> sharedLengths) {}

  /**
   * The module's binary, with what it needs of a device.
   *
   * @param analysis the program to write, with its analyses
   * @return the module
   */
  public static Written write(Analysis analysis) {
    return new SpirvWriter(analysis).emit();
  }

  private Written emit() {
    module.capability(SpvCapabilityShader);
    if (usesMatrices) {
      memory.useVulkanMemoryModel();
    }
    module.memoryModel.op(
        SpvOpMemoryModel,
        SpvAddressingModelLogical,
        usesMatrices ? SpvMemoryModelVulkan : SpvMemoryModelGLSL450);
    launch.declare();
    Set<String> sharing = AliasConflicts.sharing(program);
    module.aliasedBindings(
        program.buffers().stream()
            .filter(buffer -> sharing.contains(buffer.name()))
            .map(BufferDecl::binding)
            .collect(java.util.stream.Collectors.toSet()));
    for (BufferDecl buffer : program.buffers()) {
      memory.declareBuffer(buffer);
    }
    memory.declareFaults(program.buffers().size(), program, launch);
    for (SharedArray shared : program.shared()) {
      memory.declareShared(shared);
    }
    int main = module.id();
    module.name(main, "main");
    int functionType = module.type(SpvOpTypeFunction, module.typeVoid());

    fn.begin();
    for (Local local : program.locals()) {
      int variable = fn.temporary(fn.typeOf(local.type()));
      module.name(variable, local.name());
      localVariables.put(local, variable);
    }
    for (PrivateArray array : program.privates()) {
      memory.declarePrivate(array);
    }
    if (Walk.anyStatement(program.body(), Stmt.Loop.class::isInstance)) {
      loopLimit =
          memory.countLoops(
              fn.op(SpvOpBitcast, module.typeUint(), launch.subgroupBuiltin(SpvBuiltInSubgroupId)),
              (int) program.workgroup().invocations());
    }
    statements(program.body());
    fn.finish(main, functionType);
    memory.declareFaultSites();

    module.entryPoints.opWithString(
        SpvOpEntryPoint,
        new int[] {SpvExecutionModelGLCompute, main},
        "main",
        launch.interfaceVariables());
    module.executionModes.op(
        SpvOpExecutionMode,
        main,
        SpvExecutionModeLocalSize,
        program.workgroup().x(),
        program.workgroup().y(),
        program.workgroup().z());
    preserveFloatSemantics(main);
    return new Written(
        module.toBytes(),
        module.features(),
        module.sharedBytes(),
        memory.parameterLengths.lengths());
  }

  /**
   * Java keeps the sign of zero, computes with infinities and NaNs, and with subnormal values;
   * without these modes drivers may rewrite {@code 0f - x} as {@code -x} (lavapipe does) or flush
   * subnormals to zero (NVIDIA's does, by default, for 32 bits). Both need
   * VK_KHR_shader_float_controls; the runtime drops DenormPreserve on a device that lacks it. A
   * module that converts binary16 bits with the device's conversion asks it to keep their
   * subnormals too; the runtime picks that conversion only where it does.
   */
  private void preserveFloatSemantics(int main) {
    module.require(DeviceFeature.JAVA_FLOATS);
    boolean doubles = module.requires(DeviceFeature.FLOAT64);
    if (doubles) {
      module.require(DeviceFeature.JAVA_DOUBLES);
    }
    for (int width : doubles ? new int[] {32, 64} : new int[] {32}) {
      module.executionModes.op(
          SpvOpExecutionMode, main, SpvExecutionModeSignedZeroInfNanPreserve, width);
      module.executionModes.op(SpvOpExecutionMode, main, SpvExecutionModeDenormPreserve, width);
    }
    if (module.convertsHalves()) { // the device's conversion, where it keeps binary16 subnormals
      module.executionModes.op(SpvOpExecutionMode, main, SpvExecutionModeDenormPreserve, 16);
    }
  }

  private int value(Expr expression) {
    return expressions.value(expression);
  }

  private void statements(List<Stmt> statements) {
    for (Stmt statement : statements) {
      statement(statement);
    }
  }

  private void statement(Stmt statement) {
    memory
        .faults()
        .at(
            switch (statement) { // the arm of a fused group whose faults its checks record
              case Stmt.Store store -> store.site();
              case Stmt.Atomic atomic -> atomic.site();
              case Stmt.Matrix matrix -> matrix.site();
              case Stmt.Copy copy -> copy.site();
              case Stmt.Loop loop -> loop.site();
              default -> null;
            });
    switch (statement) {
      case Stmt.Assign assign ->
          fn.store(localVariables.get(assign.local()), value(assign.value()));
      case Stmt.Store store -> {
        int index = value(store.index());
        int value = value(store.value());
        memory.store(store.array().name(), index, value, store.site().line(), bounds.bound(store));
      }
      case Stmt.Atomic atomic -> {
        int index = value(atomic.index());
        int value = value(atomic.value());
        int expected = atomic.expected() == null ? 0 : value(atomic.expected());
        memory.atomic(
            atomic,
            index,
            value,
            expected,
            atomic.result() == null ? 0 : localVariables.get(atomic.result()),
            bounds.bound(atomic));
      }
      case Stmt.DeclareShared
              declared -> {} // workgroup memory is declared with the module's globals
      case Stmt.VectorLoad load -> vectors.load(load, this::value, localVariables::get);
      case Stmt.VectorStore store -> vectors.store(store, this::value);
      case Stmt.ClearArray clear -> memory.clear(clear.array());
      case Stmt.Matrix matrix -> matrices.write(matrix);
      case Stmt.Copy copy -> {
        int from = value(copy.sourceIndex());
        int to = value(copy.targetIndex());
        copies.write(copy, from, to, bounds.bound(copy, false), bounds.bound(copy, true));
      }
      case Stmt.Barrier ignored ->
          fn.instruction(
              SpvOpControlBarrier,
              module.constantUint(SpvScopeWorkgroup),
              module.constantUint(SpvScopeWorkgroup),
              module.constantUint(barrierSemantics));
      case Stmt.If branch -> ifStatement(branch);
      case Stmt.Loop loop -> loop(loop);
      case Stmt.Switch choice -> switchStatement(choice);
      case Stmt.Break ignored -> {
        if (fn.isOpen()) { // a break the lowering adds after a case rule that does not complete
          LoopTargets target = loops.getFirst();
          target.broke = true;
          fn.terminate(SpvOpBranch, target.merge);
        }
      }
      case Stmt.Continue ignored -> {
        LoopTargets loop =
            loops.stream().filter(target -> target.next != 0).findFirst().orElseThrow();
        loop.continued = true;
        fn.terminate(SpvOpBranch, loop.next);
      }
      case Stmt.Return ignored -> fn.ret();
      case Stmt.Call call -> throw call.unlinked();
    }
  }

  private void ifStatement(Stmt.If branch) {
    int condition = value(branch.condition());
    int then = module.id();
    int merge = module.id();
    boolean hasElse = !branch.otherwise().isEmpty();
    int otherwise = hasElse ? module.id() : merge;
    fn.instruction(SpvOpSelectionMerge, merge, SpvSelectionControlMaskNone);
    fn.terminate(SpvOpBranchConditional, condition, then, otherwise);
    fn.label(then);
    statements(branch.then());
    boolean reachesMerge = !hasElse || fn.isOpen();
    fn.branchIfOpen(merge);
    if (hasElse) {
      fn.label(otherwise);
      statements(branch.otherwise());
      reachesMerge |= fn.isOpen();
      fn.branchIfOpen(merge);
    }
    fn.mergeBlock(merge, reachesMerge);
  }

  /**
   * OpSwitch over the cases in source order; a case that ends open falls through to the next one,
   * which SPIR-V allows when the cases are laid out in that order.
   */
  private void switchStatement(Stmt.Switch choice) {
    int selector = value(choice.selector());
    int merge = module.id();
    int[] labels = new int[choice.cases().size()];
    int defaultLabel = merge;
    List<Integer> targets = new ArrayList<>();
    for (int i = 0; i < labels.length; i++) {
      Stmt.Case branch = choice.cases().get(i);
      labels[i] = module.id();
      if (branch.isDefault()) {
        defaultLabel = labels[i];
      }
      for (int value : branch.labels()) {
        targets.add(value);
        targets.add(labels[i]);
      }
    }
    fn.instruction(SpvOpSelectionMerge, merge, SpvSelectionControlMaskNone);
    int[] operands = new int[2 + targets.size()];
    operands[0] = selector;
    operands[1] = defaultLabel;
    for (int i = 0; i < targets.size(); i++) {
      operands[2 + i] = targets.get(i);
    }
    fn.terminate(SpvOpSwitch, operands);
    LoopTargets target = new LoopTargets(merge, 0);
    loops.push(target);
    boolean reachesMerge = defaultLabel == merge;
    for (int i = 0; i < labels.length; i++) {
      fn.label(labels[i]);
      statements(choice.cases().get(i).body());
      if (i == labels.length - 1) {
        reachesMerge |= fn.isOpen();
      }
      fn.branchIfOpen(i + 1 < labels.length ? labels[i + 1] : merge);
    }
    loops.pop();
    fn.mergeBlock(merge, reachesMerge || target.broke);
  }

  /**
   * header: OpLoopMerge, then the loop count (on devices that cut loops), the test (first or last)
   * and the body; the continue target runs the update and goes back to the header.
   */
  private void loop(Stmt.Loop loop) {
    int header = module.id();
    int body = module.id();
    int next = module.id();
    int merge = module.id();
    boolean endless = loop.condition() instanceof Expr.BoolConst(boolean always) && always;
    fn.branchIfOpen(header);
    fn.label(header);
    fn.instruction(
        SpvOpLoopMerge,
        merge,
        next,
        loop.unroll() ? SpvLoopControlUnrollMask : SpvLoopControlMaskNone);
    int test = module.id();
    fn.terminate(SpvOpBranch, test);
    fn.label(test);
    // Where header entries are counted (lavapipe alone counts; elsewhere the code folds away)
    // decides
    // how NVIDIA's driver (580) compiles the loop, measured on the H200 (docs/DRIVER-GAPS.md): in a
    // module with matrices, before the test (the staged f16 GEMM: 129 TFLOP/s, 80 counted in the
    // body); in any other, where an entry leads, into the body and out at the merge (the tree sum:
    // 1.009x its GLSL twin, 1.063x counted before the test). A loop left by break then counts one
    // entry more, which only makes the fault come sooner.
    // A loop marked for unrolling is not counted: it runs a constant count of turns, at most 64,
    // and lavapipe unrolls it, so that its own count, which the loop limit mirrors, has no entries
    // of it either (counted, its turns' elections and branches took lavapipe's compiler 100x longer
    // over the float32 GEMM).
    int line = loop.site() == null ? 0 : loop.site().line();
    boolean counted = !loop.unroll();
    boolean countBeforeTest = usesMatrices;
    if (counted && countBeforeTest) {
      loopLimit.countTurn(line);
    }
    if (loop.testFirst() && !endless) {
      fn.terminate(SpvOpBranchConditional, value(loop.condition()), body, merge);
    } else {
      fn.terminate(SpvOpBranch, body);
    }
    fn.label(body);
    if (counted && !countBeforeTest) {
      loopLimit.countTurn(line);
    }
    LoopTargets targets = new LoopTargets(merge, next);
    loops.push(targets);
    statements(loop.body());
    loops.pop();
    boolean nextReached = fn.isOpen() || targets.continued;
    fn.branchIfOpen(next);
    fn.label(next);
    statements(loop.update());
    if (loop.testFirst() || endless) {
      fn.terminate(SpvOpBranch, header);
    } else {
      fn.terminate(SpvOpBranchConditional, value(loop.condition()), header, merge);
    }
    boolean exits = targets.broke || (!endless && (loop.testFirst() || nextReached));
    fn.mergeBlock(merge, exits);
    if (counted && exits && !countBeforeTest) {
      loopLimit.countTurn(line);
    }
  }
}
