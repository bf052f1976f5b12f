package dev.kiln.samples.fusion;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Writes random fuse groups as Java source: 2 to 5 arms drawn from templates that share buffers
 * and scalars by name, with random workgroup sizes. Some templates touch only their own lane, some
 * read a neighbour's element, reverse a workgroup, count with atomics, wait at barriers, return
 * early or walk strided columns with a loop counter (guarded so that the column is the lane's own,
 * or not), so that random groups cover every way fusion can succeed or be refused.
 */
final class RandomGroups {
  /** Buffers and scalars every arm may use, in the order kernels declare them. */
  static final List<String> FLOAT_BUFFERS = List.of("f0", "f1", "f2");
  static final String INT_BUFFER = "n0";
  static final List<String> SCALARS = List.of("s", "t", "k");

  /** One arm: its kernel's source and the names of the parameters it declares, in order. */
  record ArmSource(String kernel, String source, List<String> params) {}

  /** The int scalars of two-dimensional groups: the image's width (columns) and height (rows). */
  static final List<String> IMAGE_SCALARS = List.of("w", "h");

  /** A group: its name and arms in order; {@code grids}: whether it is launched over grids, one per arm. */
  record Group(String name, List<ArmSource> arms, boolean grids) {
    /** The union of the arms' parameters, first seen first: the launcher's order. */
    List<String> params() {
      Set<String> union = new LinkedHashSet<>();
      arms.forEach(arm -> union.addAll(arm.params()));
      return List.copyOf(union);
    }
  }

  private final Random random;

  RandomGroups(Random random) {
    this.random = random;
  }

  Group group(String name) {
    int arms = 2 + random.nextInt(4);
    int groupWidth = width();
    List<ArmSource> sources = new ArrayList<>();
    for (int a = 0; a < arms; a++) {
      // mostly one width per group, as users write groups; sometimes another, to exercise geometry
      sources.add(arm(name + "a" + a, random.nextInt(4) == 0 ? width() : groupWidth));
    }
    return new Group(name, sources, false);
  }

  /**
   * A group of two-dimensional arms over a row-major image {@code w} wide and {@code h} high: each
   * reads and writes its own pixel ({@code row * w + col} under {@code col < w} or {@code col < w - 1}),
   * the column-major one, a neighbour's, a pixel of a guard that lets {@code col} reach the next row,
   * or one element per column from the first or second row alone or from every row.
   */
  Group imageGroup(String name) {
    int arms = 2 + random.nextInt(2);
    int[][] shapes = {{16, 16}, {8, 8}, {32, 4}};
    int[] shape = shapes[random.nextInt(shapes.length)];
    List<ArmSource> sources = new ArrayList<>();
    for (int a = 0; a < arms; a++) {
      sources.add(imageArm(name + "a" + a, shape));
    }
    return new Group(name, sources, true);
  }

  private ArmSource imageArm(String kernel, int[] shape) {
    // own pixels half the time, so that many groups fuse and the proof meets data
    int template = new int[] {0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 8, 9}[random.nextInt(15)];
    String a = floatBuffer();
    String b = floatBuffer();
    while (template >= 2 && template != 7 && template != 8 && b.equals(a)) { // an arm that reaches other pixels of what it writes races with itself
      b = floatBuffer();
    }
    String body = switch (template) {
      case 0 -> // its own pixel
          "if (row < h && col < w) { int at = row * w + col; if (at < %1$s.length && at < %2$s.length) {"
              + " %1$s[at] = %2$s[at] * s + t; } }";
      case 1 -> // its own pixel, updated
          "if (row < h && col < w) { int at = row * w + col; if (at < %1$s.length) { %1$s[at] += s; } }";
      case 2 -> // the pixel to the right: another invocation's
          "if (row < h && col + 1 < w) { int at = row * w + col; if (at + 1 < %2$s.length && at < %1$s.length) {"
              + " %1$s[at] = %2$s[at + 1] + t; } }";
      case 3 -> // the column-major layout: the same elements, other invocations'
          "if (row < h && col < w) { int at = col * h + row; if (at < %1$s.length && at < %2$s.length) {"
              + " %1$s[at] = %2$s[at] - s; } }";
      case 4 -> // a guard that lets col reach the next row
          "if (row < h && col <= w) { int at = row * w + col; if (at < %1$s.length && at < %2$s.length) {"
              + " %1$s[at] = %2$s[at] * t; } }";
      case 5 -> // the pixel below
          "if (row + 1 < h && col < w) { int at = row * w + col; if (at + w < %2$s.length && at < %1$s.length) {"
              + " %1$s[at] = %2$s[at + w] + s; } }";
      case 6 -> // the image unguarded: col may pass w
          "int at = row * w + col; if (at < %1$s.length && at < %2$s.length) { %1$s[at] = %2$s[at] + t; }";
      case 7 -> // its own pixel of all but the last column: w - 1 must not wrap, which the launch keeps
          "if (row < h && col < w - 1) { int at = row * w + col; if (at < %1$s.length && at < %2$s.length) {"
              + " %1$s[at] = %2$s[at] * s - t; } }";
      case 8 -> // the first or the second row alone, one element per column: row is pinned
          ("if (row == " + random.nextInt(2) + " && col < w) { if (col < %1$s.length && col < %2$s.length) {"
              + " %1$s[col] = %2$s[col] + s; } }");
      default -> // every row on one element per column: rows share it
          "if (row < h && col < w) { if (col < %1$s.length && col < %2$s.length) { %1$s[col] = %2$s[col] + t; } }";
    };
    body = body.formatted(a, b);
    List<String> params = new ArrayList<>();
    for (String name : FLOAT_BUFFERS) {
      if (body.contains(name)) {
        params.add(name);
      }
    }
    for (String scalar : List.of("w", "h", "s", "t")) {
      if (body.matches(".*\\b" + scalar + "\\b.*")) {
        params.add(scalar);
      }
    }
    List<String> declared = params.stream().map(RandomGroups::declaration).toList();
    String source = """
          @Kernel(workgroup = {%d, %d})
        @FUSE@
          static void %s(%s) {
            int col = Gpu.globalId(0);
            int row = Gpu.globalId(1);
            %s
          }

        """.formatted(shape[0], shape[1], kernel, String.join(", ", declared), body);
    return new ArmSource(kernel, source, params);
  }

  /** The source of a class holding {@code groups}, annotated as groups or, with {@code fused} false, as plain kernels. */
  static String classSource(String pkg, String className, List<Group> groups, Set<String> unfused) {
    StringBuilder source = new StringBuilder("""
        package %s;

        import dev.kiln.Gpu;
        import dev.kiln.annotations.FuseGroup;
        import dev.kiln.annotations.Kernel;

        public final class %s {
        """.formatted(pkg, className));
    for (Group group : groups) {
      for (ArmSource arm : group.arms()) {
        String annotation = unfused.contains(group.name()) ? "" : "  @FuseGroup(\"" + group.name() + "\")\n";
        source.append(arm.source().replace("@FUSE@\n", annotation));
      }
    }
    return source.append("}\n").toString();
  }

  private String floatBuffer() {
    return FLOAT_BUFFERS.get(random.nextInt(FLOAT_BUFFERS.size()));
  }

  private int width() {
    return new int[] {32, 64, 64, 128}[random.nextInt(4)];
  }

  private ArmSource arm(String kernel, int width) {
    int template = random.nextInt(12);
    String a = floatBuffer();
    String b = floatBuffer();
    // an arm that reads other lanes' elements of the buffer it writes would race with itself
    boolean readsOtherLanes = template == 1 || template == 2 || template == 6 || template == 8 || template == 9
        || template == 10 || template == 11;
    while (readsOtherLanes && b.equals(a)) {
      b = floatBuffer();
    }
    String body = switch (template) {
      case 0 -> // same lane
          "if (i < %1$s.length && i < %2$s.length) { %1$s[i] = %2$s[i] * s + t; }".formatted(a, b);
      case 1 -> // the next element
          "if (i < %1$s.length && i + 1 < %2$s.length) { %1$s[i] = %2$s[i + 1] + s; }".formatted(a, b);
      case 2 -> // reversed inside the workgroup
          ("int p = Gpu.workgroupId(0) * %3$d + (%3$d - 1 - Gpu.localId(0));"
              + " if (i < %1$s.length && p < %2$s.length) { %1$s[i] = %2$s[p] - t; }").formatted(a, b, width);
      case 3 -> // returns early for some lanes
          "if (i %% 3 == 1) { return; } if (i < %1$s.length) { %1$s[i] += s; }".formatted(a);
      case 4 -> // counts with an atomic
          "if (i < %1$s.length && %1$s[i] > 0f) { Gpu.atomicAdd(n0, 0, 1); }".formatted(a);
      case 5 -> // ints, same lane, through a local
          "int j = i + k - k; if (j < n0.length) { n0[j] = n0[j] * 3 + k; }";
      case 6 -> // one element for all
          "if (i < %1$s.length && %2$s.length > 0) { %1$s[i] = %2$s[0] + %1$s[i]; }".formatted(a, b);
      case 7 -> // a workgroup rotation through workgroup memory, with barriers
          ("float[] tile = Gpu.sharedFloats(%3$d); int l = Gpu.localId(0);"
              + " tile[l] = i < %2$s.length ? %2$s[i] : 0f; Gpu.barrier();"
              + " if (i < %1$s.length) { %1$s[i] = tile[(l + 1) %% %3$d] + s; }").formatted(a, b, width);
      case 8 -> // a window: an index the analysis cannot follow
          "float sum = 0f; for (int q = 0; q < 3; q++) { if (i + q < %2$s.length) { sum += %2$s[i + q]; } }"
              .formatted(a, b) + " if (i < %1$s.length) { %1$s[i] = sum; }".formatted(a);
      case 10 -> { // the workgroup's tile read with a loop counter: inside it, or one past it (unsafe)
        int turns = new int[] {width / 2, width, width + 1}[random.nextInt(3)];
        yield ("float sum = 0f; for (int q = 0; q < %3$d; q++) { int at = Gpu.workgroupId(0) * %4$d + q;"
            + " if (at < %2$s.length) { sum += %2$s[at]; } } if (i < %1$s.length) { %1$s[i] = sum; }")
            .formatted(a, b, turns, width);
      }
      case 11 -> { // a strided column walked by a loop counter: i < k keeps it the lane's own (safe), a
        // guard past k lets i reach the next column, another lane's (unsafe)
        String guard = new String[] {"k", "k", "k + 1", "2 * k"}[random.nextInt(4)];
        yield ("if (i < %3$s) { for (int q = 0; q < %4$d; q++) { int at = i + k * q;"
            + " if (at < %1$s.length && at < %2$s.length) { %1$s[at] = %2$s[at] * s + t; } } }")
            .formatted(a, b, guard, 2 + random.nextInt(4));
      }
      default -> // the buffer reversed
          "if (i < %1$s.length && i < %2$s.length) { %1$s[%1$s.length - 1 - i] = %2$s[i] * t; }".formatted(a, b);
    };
    List<String> params = new ArrayList<>();
    for (String name : FLOAT_BUFFERS) {
      if (body.contains(name)) {
        params.add(name);
      }
    }
    if (body.contains(INT_BUFFER)) {
      params.add(INT_BUFFER);
    }
    for (String scalar : SCALARS) {
      if (body.matches(".*\\b" + scalar + "\\b.*")) {
        params.add(scalar);
      }
    }
    List<String> declared = params.stream().map(RandomGroups::declaration).toList();
    String source = """
          @Kernel(workgroup = %d)
        @FUSE@
          static void %s(%s) {
            int i = Gpu.globalId(0);
            %s
          }

        """.formatted(width, kernel, String.join(", ", declared), body);
    return new ArmSource(kernel, source, params);
  }

  private static String declaration(String param) {
    if (param.equals(INT_BUFFER)) {
      return "int[] " + param;
    }
    if (FLOAT_BUFFERS.contains(param)) {
      return "float[] " + param;
    }
    return (param.equals("k") || IMAGE_SCALARS.contains(param) ? "int " : "float ") + param;
  }
}
