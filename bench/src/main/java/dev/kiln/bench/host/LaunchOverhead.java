package dev.kiln.bench.host;

import dev.kiln.Device;
import dev.kiln.IntArray;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A generated launcher's call on the CPU backend: a 64-invocation kernel on a device array and on
 * a Java array, against the same 64 increments written as a plain loop.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(1)
public class LaunchOverhead {
  private Device device;
  private IntArray onDevice;
  private final int[] data = new int[64];

  @Setup(Level.Trial)
  public void open() {
    device = Device.open("cpu");
    onDevice = device.ints(64);
  }

  @TearDown(Level.Trial)
  public void close() {
    onDevice.close();
    device.close();
  }

  @Benchmark
  public void launcherOnDeviceArray() {
    TinyKernels.increment(device, 64, onDevice);
  }

  @Benchmark
  public void launcherOnJavaArray() {
    TinyKernels.increment(device, 64, data);
  }

  @Benchmark
  public int[] plainLoop() {
    for (int i = 0; i < data.length; i++) {
      data[i] = data[i] + 1;
    }
    return data;
  }
}
