package dev.kiln.samples.fusion;

import dev.kiln.samples.testing.Bits;
import dev.kiln.samples.testing.BothDevices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.Device;
import dev.kiln.Grid;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The oracle of fusion on random groups: each either fails to compile with fusion errors, or its
 * fused dispatch on Vulkan leaves every buffer bit for bit as its arms leave them run one after
 * another as Java on the CPU backend, for random data, random per-arm counts and buffer lengths that
 * are not multiples of the workgroup size; groups of two-dimensional arms over a row-major image
 * run over random grids per arm. {@code -Dkiln.fusionGroups=N} and
 * {@code -Dkiln.fusionSeed=S} run other amounts and seeds; {@code -Dkiln.fusionDir=D} keeps the
 * compiled groups in D, and a later run with the same D (on a machine with no JDK) reuses them.
 */
class RandomFusionTest extends BothDevices {
  private static final int GROUPS = Integer.getInteger("kiln.fusionGroups", 1000);
  /** Groups of two-dimensional arms over a row-major image, launched over grids. */
  private static final int IMAGE_GROUPS = Integer.getInteger("kiln.fusionImageGroups", 250);
  private static final int GROUPS_PER_CLASS = 125;
  private static final long SEED = Long.getLong("kiln.fusionSeed", 20261130L);

  @Test
  void randomGroupsFuseExactlyOrAreRefused(@TempDir Path dir) throws Exception {
    RandomGroups generator = new RandomGroups(new Random(SEED));
    List<RandomGroups.Group> groups = new ArrayList<>();
    for (int g = 0; g < GROUPS; g++) {
      groups.add(generator.group("g" + g));
    }
    for (int g = 0; g < IMAGE_GROUPS; g++) {
      groups.add(generator.imageGroup("m" + g));
    }
    List<List<RandomGroups.Group>> classes = new ArrayList<>();
    for (int from = 0; from < groups.size(); from += GROUPS_PER_CLASS) {
      classes.add(groups.subList(from, Math.min(groups.size(), from + GROUPS_PER_CLASS)));
    }

    Path work = System.getProperty("kiln.fusionDir") == null ? dir : Path.of(System.getProperty("kiln.fusionDir"));
    Path classesDir = work.resolve("second");
    Path verdicts = work.resolve("refused.txt");
    Map<String, String> refusedKinds = Files.exists(verdicts) ? readVerdicts(verdicts) : GroupCompiler.compileBoth(work, classes);
    if (!Files.exists(verdicts)) {
      writeVerdicts(verdicts, refusedKinds);
    }
    Set<String> refused = refusedKinds.keySet();
    Map<String, Integer> refusedByKind = new TreeMap<>();
    refusedKinds.values().forEach(kind -> refusedByKind.merge(kind, 1, Integer::sum));

    Path packed = work.resolve("second.jar"); // the compiled groups packed for another machine
    URL compiled = (Files.exists(packed) ? packed : classesDir).toUri().toURL();
    ClassLoader loader = new URLClassLoader(new URL[] {compiled}, getClass().getClassLoader());
    Random data = new Random(SEED + 1);
    int fused = 0;
    int fusedImages = 0;
    for (int c = 0; c < classes.size(); c++) {
      Class<?> launcher = loader.loadClass("fuzz.Groups" + c + "Kernels");
      for (RandomGroups.Group group : classes.get(c)) {
        if (!refused.contains(group.name())) {
          run(launcher, group, data);
          fused++;
          fusedImages += group.grids() ? 1 : 0;
        }
      }
    }
    System.out.printf("random fusion (seed %d): %d groups (%d over images), %d fused (%d over images) and identical"
        + " to their arms on the CPU, %d refused %s%n", SEED, groups.size(), IMAGE_GROUPS, fused, fusedImages,
        refused.size(), refusedByKind);
    assertEquals(groups.size(), fused + refused.size());
    assertTrue(fused >= groups.size() / 4, () -> "too few groups fuse: " + refusedByKind);
    assertTrue(IMAGE_GROUPS == 0 || fusedImages > 0, "no image group fused: the row-major proof is untested");
  }

  /**
   * The verdicts of an earlier compile in {@code -Dkiln.fusionDir} (so that a machine without a
   * JDK, the GPU machine, can run groups compiled elsewhere): a line "group kind" per refused group.
   */
  private static Map<String, String> readVerdicts(Path file) throws IOException {
    Map<String, String> refused = new TreeMap<>();
    for (String line : Files.readAllLines(file)) {
      String[] parts = line.split(" ");
      refused.put(parts[0], parts[1]);
    }
    return refused;
  }

  private static void writeVerdicts(Path file, Map<String, String> refused) throws IOException {
    StringBuilder text = new StringBuilder();
    refused.forEach((group, kind) -> text.append(group).append(' ').append(kind).append('\n'));
    Files.writeString(file, text);
  }

  /**
   * Runs the group fused on Vulkan, fused on the CPU twin, and arm by arm as the kernel methods on
   * the CPU from the same data, and compares every buffer.
   */
  private static void run(Class<?> launcher, RandomGroups.Group group, Random random) throws Exception {
    List<String> params = group.params();
    int arms = group.arms().size();
    Class<?>[] types = new Class<?>[1 + arms + params.size()];
    types[0] = Device.class;
    Object[] onCpu = new Object[types.length];
    Object[] onVulkan = new Object[types.length];
    Object[] onMethods = new Object[types.length];
    for (int k = 0; k < arms; k++) {
      types[1 + k] = group.grids() ? Grid.class : int.class;
      onCpu[1 + k] = onVulkan[1 + k] = onMethods[1 + k] = group.grids()
          ? Grid.of(1 + random.nextInt(48), 1 + random.nextInt(24)) : (Object) random.nextInt(800);
    }
    for (int p = 0; p < params.size(); p++) {
      String name = params.get(p);
      int at = 1 + arms + p;
      int length = 1 + random.nextInt(700);
      if (RandomGroups.FLOAT_BUFFERS.contains(name)) {
        types[at] = float[].class;
        float[] values = Bits.randomFloats(random, length, 8f);
        onCpu[at] = values;
        onVulkan[at] = values.clone();
        onMethods[at] = values.clone();
      } else if (name.equals(RandomGroups.INT_BUFFER)) {
        types[at] = int[].class;
        int[] values = new int[length];
        for (int i = 0; i < length; i++) {
          values[i] = random.nextInt(1000) - 500;
        }
        onCpu[at] = values;
        onVulkan[at] = values.clone();
        onMethods[at] = values.clone();
      } else if (name.equals("k")) {
        types[at] = int.class;
        onCpu[at] = onVulkan[at] = onMethods[at] = random.nextInt(100);
      } else if (RandomGroups.IMAGE_SCALARS.contains(name)) {
        types[at] = int.class;
        onCpu[at] = onVulkan[at] = onMethods[at] = 1 + random.nextInt(name.equals("w") ? 40 : 20);
      } else {
        types[at] = float.class;
        onCpu[at] = onVulkan[at] = onMethods[at] = (float) random.nextInt(16) / 4f;
      }
    }
    Method method = launcher.getMethod(group.name(), types);
    onCpu[0] = cpu;
    onVulkan[0] = vulkan;
    onMethods[0] = cpuMethods;
    try {
      method.invoke(null, onMethods);
      method.invoke(null, onCpu);
      method.invoke(null, onVulkan);
    } catch (InvocationTargetException e) {
      throw new AssertionError("group " + group.name() + " failed: " + describe(group), e.getCause());
    }
    for (int p = 0; p < params.size(); p++) {
      int at = 1 + arms + p;
      if (onCpu[at].getClass().isArray()) {
        Bits.assertSameBits("buffer " + params.get(p) + " of " + describe(group) + ", fused CPU twin against the"
            + " methods arm by arm", onMethods[at], onCpu[at]);
        Bits.assertSameBits("buffer " + params.get(p) + " of " + describe(group), onCpu[at], onVulkan[at]);
      }
    }
  }

  private static String describe(RandomGroups.Group group) {
    StringBuilder text = new StringBuilder(group.name()).append(" (seed ").append(SEED).append("):\n");
    group.arms().forEach(arm -> text.append(arm.source()));
    return text.toString();
  }
}
