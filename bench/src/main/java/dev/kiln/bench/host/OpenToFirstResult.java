package dev.kiln.bench.host;

import dev.kiln.Device;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code Device.open()} to the first result of a 4096-element kernel on Java arrays, once per fresh
 * JVM (JMH's single-shot mode, one fork per sample), on the best device ({@code -Dkiln.device}
 * picks another), with the on-disk pipeline cache warm (filled by an earlier fork) or cold (an
 * empty folder each time).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(10)
public class OpenToFirstResult {
  @Param({"warm", "cold"})
  public String pipelineCache;

  @Setup
  public void cacheFolder() throws IOException {
    Path folder = pipelineCache.equals("warm")
        ? Path.of(System.getProperty("java.io.tmpdir"), "kiln-bench-pipeline-cache")
        : Files.createTempDirectory("kiln-bench-cold-cache");
    System.setProperty("kiln.pipelineCache", folder.toString());
  }

  @Benchmark
  public int openAndLaunch() {
    int[] data = new int[4096];
    try (Device device = Device.open()) {
      TinyKernels.increment(device, data.length, data);
    }
    return data[4095];
  }
}
