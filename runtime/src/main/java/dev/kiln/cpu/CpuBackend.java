package dev.kiln.cpu;

import dev.kiln.KernelSpec;
import dev.kiln.NumericType;
import dev.kiln.backend.Backend;
import dev.kiln.backend.BackendBuffer;
import java.util.stream.IntStream;

/**
 * Runs kernels as the Java methods they were written as: one call per invocation, workgroups in
 * parallel on the common fork-join pool. Java semantics make it the reference for every other
 * backend.
 */
public final class CpuBackend implements Backend {
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
    IntStream.range(0, groups).parallel().forEach(group -> {
      Invocation invocation = Invocation.enter();
      try {
        int end = Math.min(size, count - group * size);
        for (int local = 0; local < end; local++) {
          invocation.set(group, local, size, groups);
          body.invoke(javaArgs);
        }
      } finally {
        Invocation.exit();
      }
    });
  }

  @Override
  public void close() {}
}
