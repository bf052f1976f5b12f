package dev.kiln.cpu;

import dev.kiln.KernelSpec;
import dev.kiln.NumericType;
import dev.kiln.backend.Backend;
import dev.kiln.backend.BackendBuffer;
import dev.kiln.backend.KernelModule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

/**
 * Runs kernels as the Java methods they were written as: one call per invocation, workgroups in
 * parallel on the common fork-join pool. Java semantics make it the reference for every other
 * backend. The invocations of a workgroup run one after the other, except in kernels with barriers:
 * there they run side by side as virtual threads meeting at a {@link WorkgroupBarrier}, and whole
 * workgroups run, as on the GPU.
 */
public final class CpuBackend implements Backend {
  private final Map<KernelSpec, Boolean> cooperative = new ConcurrentHashMap<>();

  @Override
  public String deviceName() {
    return "Java " + Runtime.version().feature() + " on " + Runtime.getRuntime().availableProcessors() + " cores";
  }

  @Override
  public String kind() {
    return "cpu";
  }

  @Override
  public boolean validationEnabled() {
    return false;
  }

  @Override
  public BackendBuffer allocate(NumericType type, int length) {
    return new CpuBuffer(type, switch (type) {
      case INT -> new int[length];
      case FLOAT -> new float[length];
    });
  }

  @Override
  public BackendBuffer stage(Object array) {
    return new CpuBuffer(NumericType.ofArray(array), array);
  }

  @Override
  public void dispatch(KernelSpec spec, int count, Object[] args) {
    Object[] javaArgs = new Object[args.length];
    for (int i = 0; i < args.length; i++) {
      javaArgs[i] = args[i] instanceof CpuBuffer buffer ? buffer.array() : args[i];
    }
    int size = spec.workgroup(0);
    int groups = Math.ceilDiv(count, size);
    KernelSpec.CpuBody body = spec.cpuBody();
    boolean sideBySide = cooperative.computeIfAbsent(spec, CpuBackend::usesBarriers);
    IntStream.range(0, groups).parallel().forEach(group -> {
      if (sideBySide) {
        runSideBySide(body, javaArgs, group, size, groups);
      } else {
        runInOrder(body, javaArgs, group, Math.min(size, count - group * size), size, groups);
      }
    });
  }

  private static boolean usesBarriers(KernelSpec spec) {
    try {
      return KernelModule.of(spec).usesBarriers();
    } catch (IllegalStateException noModule) {
      return false; // a kernel the processor did not compile cannot call Gpu.barrier() successfully either
    }
  }

  private static void runInOrder(KernelSpec.CpuBody body, Object[] args, int group, int invocations, int size,
      int groups) {
    Workgroup workgroup = new Workgroup(null);
    Invocation invocation = Invocation.enter();
    try {
      for (int local = 0; local < invocations; local++) {
        invocation.set(workgroup, group, local, size, groups);
        body.invoke(args);
      }
    } finally {
      Invocation.exit();
    }
  }

  private static void runSideBySide(KernelSpec.CpuBody body, Object[] args, int group, int size, int groups) {
    WorkgroupBarrier barrier = new WorkgroupBarrier(size);
    Workgroup workgroup = new Workgroup(barrier);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>(size);
    for (int local = 0; local < size; local++) {
      int id = local;
      threads.add(Thread.ofVirtual().start(() -> {
        Invocation invocation = Invocation.enter();
        try {
          invocation.set(workgroup, group, id, size, groups);
          body.invoke(args);
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        } finally {
          barrier.leave();
          Invocation.exit();
        }
      }));
    }
    for (Thread thread : threads) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while running a workgroup", e);
      }
    }
    Throwable thrown = failure.get();
    if (thrown instanceof RuntimeException e) {
      throw e;
    }
    if (thrown instanceof Error e) {
      throw e;
    }
  }

  @Override
  public void close() {}
}
