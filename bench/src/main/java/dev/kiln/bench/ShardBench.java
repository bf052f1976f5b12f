package dev.kiln.bench;

import dev.kiln.Device;
import dev.kiln.DeviceArray;
import dev.kiln.DeviceSet;
import dev.kiln.FloatArray;
import dev.kiln.ShardedArray;
import dev.kiln.ShortArray;
import dev.kiln.library.Gemm;
import dev.kiln.library.ShardedGemm;
import dev.kiln.samples.SaxpyKernels;
import dev.kiln.samples.StencilKernels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VK11;
import org.lwjgl.vulkan.VkApplicationInfo;
import org.lwjgl.vulkan.VkInstance;
import org.lwjgl.vulkan.VkInstanceCreateInfo;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceGroupProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties;

/**
 * Launches on data resident on several GPUs ({@link ShardedArray}), against one GPU with the same
 * data on it, timed whole on the host (each launch waits for every device): saxpy, a 5-point
 * stencil iterated with a row of halo exchanged between steps, a float16 product split by rows, and
 * a device-to-device copy. Each sharded run first gives one device's bits (the product: each
 * device's rows, the same kernels).
 *
 * <p>With one GPU it runs the same on two logical devices of that GPU: the sharded path's overhead,
 * not a speed-up. It also prints what the Vulkan driver reports as device groups (the direct path
 * between GPUs Vulkan offers).
 *
 * <p>{@code java -cp ... dev.kiln.bench.ShardBench <out dir> [log2 saxpy elements] [stencil width]
 * [gemm size]} (defaults 28, 8192, 8192). Writes {@code shard.csv}.
 */
public final class ShardBench {
  private static final int RUNS = 20;
  private static final int STEPS = 10;

  private ShardBench() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "bench-results");
    int n = 1 << (args.length > 1 ? Integer.parseInt(args[1]) : 28);
    int width = args.length > 2 ? Integer.parseInt(args[2]) : 8192;
    int size = args.length > 3 ? Integer.parseInt(args[3]) : 8192;
    Files.createDirectories(out);
    System.out.println("device groups: " + deviceGroups());
    List<Device> all = new ArrayList<>(Device.all());
    String many = all.size() > 1 ? all.size() + " GPUs" : "2 logical devices of one GPU";
    Device gpu = all.getFirst();
    if (all.size() == 1) { // a second logical device of the one GPU (or CPU backend, where there is none)
      all.add(Device.open(gpu.backend().equals("cpu") ? "cpu" : gpu.name()));
    }
    Results results = new Results();
    try (DeviceSet one = DeviceSet.of(gpu); DeviceSet set = DeviceSet.of(all)) {
      System.out.printf("%s, sharded over %s%n", gpu.name(), many);
      saxpy(results, gpu, one, set, many, n);
      stencil(results, gpu, one, set, many, width);
      gemm(results, gpu, set, many, size);
      copies(results, all, n);
    } finally {
      all.forEach(Device::close);
    }
    results.write(out.resolve("shard.csv"));
  }

  private static void saxpy(Results results, Device gpu, DeviceSet one, DeviceSet set, String many, int n) {
    float[] x = floats(n, 1);
    float[] y = floats(n, 2);
    long bytes = 12L * n;
    try (FloatArray dx = gpu.upload(x); FloatArray dy = gpu.upload(y)) {
      SaxpyKernels.saxpy(gpu, n, 1.5f, dx, dy);
      float[] expected = dy.toArray();
      results.add("saxpy", "one GPU (device arrays)", n, bytes,
          Measure.wall(RUNS, () -> SaxpyKernels.saxpy(gpu, n, 1.5f, dx, dy)));
      for (DeviceSet devices : List.of(one, set)) {
        try (ShardedArray<float[]> sx = ShardedArray.upload(devices, x, 0);
            ShardedArray<float[]> sy = ShardedArray.upload(devices, y, 0)) {
          SaxpyKernels.saxpy(devices, n, 1.5f, sx, sy);
          same("saxpy over " + devices.devices().size(), expected, sy.toArray());
          results.add("saxpy", "sharded over " + (devices == one ? "one GPU" : many), n, bytes,
              Measure.wall(RUNS, () -> SaxpyKernels.saxpy(devices, n, 1.5f, sx, sy)));
        }
      }
    }
  }

  /** {@link #STEPS} steps of the stencil per run on a square grid {@code width} wide; a row of halo. */
  private static void stencil(Results results, Device gpu, DeviceSet one, DeviceSet set, String many, int width) {
    int cells = width * width;
    float[] grid = floats(cells, 3);
    long bytes = 8L * cells * STEPS;
    try (FloatArray u = gpu.upload(grid); FloatArray next = gpu.floats(cells)) {
      Runnable steps = () -> {
        for (int step = 0; step < STEPS; step++) {
          StencilKernels.relax(gpu, cells, step % 2 == 0 ? u : next, step % 2 == 0 ? next : u, width);
        }
      };
      steps.run();
      float[] expected = u.toArray();
      results.add("stencil", "one GPU (device arrays) " + STEPS + " steps", cells, bytes, Measure.wall(RUNS, steps));
      results.add("stencil", "one GPU (device arrays) 1 step", cells, bytes / STEPS,
          Measure.wall(RUNS, () -> StencilKernels.relax(gpu, cells, u, next, width)));
      for (DeviceSet devices : List.of(one, set)) {
        try (ShardedArray<float[]> su = ShardedArray.upload(devices, grid, width);
            ShardedArray<float[]> sn = ShardedArray.zeros(devices, float[].class, cells, width)) {
          Runnable sharded = () -> {
            for (int step = 0; step < STEPS; step++) {
              StencilKernels.relax(devices, cells, step % 2 == 0 ? su : sn, step % 2 == 0 ? sn : su, width);
            }
          };
          sharded.run();
          same("stencil over " + devices.devices().size(), expected, su.toArray());
          String over = devices == one ? "one GPU" : many;
          results.add("stencil", "sharded over " + over + " " + STEPS + " steps", cells, bytes,
              Measure.wall(RUNS, sharded));
          // one step whose input's halos are current, and one after marking them behind: the exchange's cost
          results.add("stencil", "sharded over " + over + " 1 step (halos current)", cells, bytes / STEPS,
              Measure.wall(RUNS, () -> StencilKernels.relax(devices, cells, su, sn, width)));
          results.add("stencil", "sharded over " + over + " 1 step (halos exchanged first)", cells, bytes / STEPS,
              Measure.wall(RUNS, () -> {
                su.markWritten();
                StencilKernels.relax(devices, cells, su, sn, width);
              }));
        }
      }
    }
  }

  /** A float16 product {@code size}³, one GPU against rows split over the set. */
  private static void gemm(Results results, Device gpu, DeviceSet set, String many, int size) {
    long elements = (long) size * size;
    short[] a = halves((int) elements, 4);
    short[] b = halves((int) elements, 5);
    long flops = 2L * size * size * size;
    try (ShortArray da = gpu.upload(a); ShortArray db = gpu.upload(b); FloatArray dc = gpu.floats((int) elements)) {
      Runnable alone = () -> Gemm.shorts(gpu, size, size, size, 1f, da, false, db, false, 0f, dc,
          Gemm.Epilogue.forDevice(), false);
      alone.run();
      float[] expected = dc.toArray();
      results.add("f16 gemm", "one GPU", size, flops, Measure.wall(RUNS, alone));
      try (ShardedArray<short[]> sa = ShardedArray.upload(set, a, 0, size);
          ShardedArray<short[]> sb = ShardedArray.replicate(set, b);
          ShardedArray<float[]> sc = ShardedArray.zeros(set, float[].class, (int) elements, 0, size)) {
        Runnable split = () -> ShardedGemm.shorts(set, size, size, size, 1f, sa, sb, false, 0f, sc, false);
        split.run();
        float[] actual = sc.toArray();
        System.out.printf("f16 gemm split by rows: %s one GPU's bits%n",
            Arrays.equals(expected, actual) ? "the same as" : "NOT the same as");
        results.add("f16 gemm", "rows split over " + many, size, flops, Measure.wall(RUNS, split));
      }
    }
  }

  /**
   * A device array copied from the first device to the second, through host memory in chunks: into
   * an array there, and to a new one (its allocation and release included).
   */
  private static void copies(Results results, List<Device> devices, int n) {
    try (FloatArray source = devices.get(0).upload(floats(n, 6)); FloatArray target = devices.get(1).floats(n)) {
      results.add("copy", "device 0 into an array of device 1", n, 4L * n,
          Measure.wall(RUNS, () -> source.copyInto(target)));
      results.add("copy", "device 0 to a new array of device 1", n, 4L * n, Measure.wall(RUNS, () -> {
        try (DeviceArray<float[], ?> copy = source.copyTo(devices.get(1))) {
          copy.length();
        }
      }));
    }
  }

  private static void same(String what, float[] expected, float[] actual) {
    if (!Arrays.equals(expected, actual)) {
      throw new AssertionError(what + ": the sharded run differs from one device's");
    }
  }

  /** What vkEnumeratePhysicalDeviceGroups lists: each group's devices by name. */
  private static String deviceGroups() {
    try (MemoryStack stack = MemoryStack.stackPush()) {
      VkApplicationInfo app = VkApplicationInfo.calloc(stack).sType$Default().apiVersion(VK11.VK_API_VERSION_1_1);
      PointerBuffer pointer = stack.mallocPointer(1);
      int result = VK11.vkCreateInstance(VkInstanceCreateInfo.calloc(stack).sType$Default().pApplicationInfo(app),
          null, pointer);
      if (result != VK11.VK_SUCCESS) {
        return "no Vulkan instance (" + result + ")";
      }
      VkInstance instance = new VkInstance(pointer.get(0), VkInstanceCreateInfo.calloc(stack).sType$Default()
          .pApplicationInfo(app));
      try {
        int[] count = new int[1];
        VK11.vkEnumeratePhysicalDeviceGroups(instance, count, null);
        VkPhysicalDeviceGroupProperties.Buffer groups = VkPhysicalDeviceGroupProperties.calloc(count[0], stack);
        groups.forEach(group -> group.sType$Default());
        VK11.vkEnumeratePhysicalDeviceGroups(instance, count, groups);
        List<String> described = new ArrayList<>();
        for (VkPhysicalDeviceGroupProperties group : groups) {
          List<String> names = new ArrayList<>();
          for (int d = 0; d < group.physicalDeviceCount(); d++) {
            VkPhysicalDeviceProperties properties = VkPhysicalDeviceProperties.calloc(stack);
            VK11.vkGetPhysicalDeviceProperties(new VkPhysicalDevice(group.physicalDevices().get(d), instance),
                properties);
            names.add(properties.deviceNameString());
          }
          described.add(names + (group.subsetAllocation() ? " (subset allocation)" : ""));
        }
        return described.size() + ": " + described;
      } finally {
        VK11.vkDestroyInstance(instance, null);
      }
    }
  }

  private static float[] floats(int n, int seed) {
    Random random = new Random(seed);
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextFloat() * 4f - 1f;
    }
    return values;
  }

  private static short[] halves(int n, int seed) {
    Random random = new Random(seed);
    short[] values = new short[n];
    for (int i = 0; i < n; i++) {
      values[i] = Float.floatToFloat16(random.nextFloat() * 2f - 1f);
    }
    return values;
  }
}
