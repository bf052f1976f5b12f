package test;

import dev.kiln.Gpu;
import dev.kiln.annotations.Access;
import dev.kiln.annotations.Buffer;
import dev.kiln.annotations.Kernel;
import dev.kiln.matrix.MatrixA;
import dev.kiln.matrix.MatrixAccumulator;
import dev.kiln.matrix.MatrixB;
import dev.kiln.matrix.MatrixElement;
import dev.kiln.matrix.MatrixLayout;

public final class Bodies {
  static int counter;
  static final double RATE = 0.5;

  @Kernel
  static void locals(float[] x, int axis) {
    int i = Gpu.globalId(0);
    String name = "kernel"; // ERROR: [kiln.unsupported.type]
    double wide = 1.0;
    long big = 1L;
    char letter = 'k';
    x[i] += letter;
    float[] copy = x; // a variable that names a buffer: supported
    x[i] = name.length(); // reported once, at the declaration
    x[i] = (float) (x[i] * wide + big);
    Object o = new Object(); // ERROR: [kiln.unsupported.type]
    java.util.List<Integer> items = null; // ERROR: [kiln.unsupported.type]
    Integer boxed = i; // ERROR: [kiln.unsupported.type]
    x[i] = counter; // ERROR: [kiln.unsupported.field]
    x[i] = (float) RATE;
    x[i] = Integer.parseInt("12"); // ERROR: [kiln.unsupported.call]
    x[i] = (float) Math.sin(x[i]); // ERROR: [kiln.unsupported.mathDouble]
    x[i] = Gpu.globalId(axis); // ERROR: [kiln.intrinsic.axis]
    int j = i++; // assignments and increments inside expressions are Java's (corpus SideEffects)
    int k = (j = 3);
    x[i] = x.length + x.hashCode(); // ERROR: [kiln.unsupported.arrayUse]
    counter = 1; // ERROR: [kiln.unsupported.field]
    System.out.println(i); // ERROR: [kiln.unsupported.print]
    java.util.Arrays.fill(x, 1f); // ERROR: [kiln.unsupported.call]
    x[i] = (float) Math.pow(x[i], 2); // ERROR: [kiln.unsupported.mathDouble]
    x[i] = (float) Math.atan2(x[i], 2); // ERROR: [kiln.unsupported.mathDouble]
    x[i] = (float) Math.log(1 // ERROR: [kiln.unsupported.mathDouble]
        + Math.exp(x[i])); // ERROR: [kiln.unsupported.mathDouble]
  }

  @Kernel
  static void statements(int[] x) {
    int i = Gpu.globalId(0);
    x[i] = switch (i) {
      case 0 -> 1;
      default -> { // a case that runs statements, inside a larger expression: fine
        int twice = i * 2;
        yield twice;
      }
    };
    switch (i) {
      case 0 -> x[i] = 1;
      case 1 -> throw new IllegalStateException(); // ERROR: [kiln.unsupported.statement]
      default -> x[i] = 2;
    }
    for (Integer v : x) { // ERROR: [kiln.unsupported.type]
      i += v;
    }
    block: // ERROR: [kiln.unsupported.label]
    {
      if (i > 3) {
        break block;
      }
      x[i] = 0;
    }
    try { // ERROR: [kiln.unsupported.statement]
      x[i] = 1;
    } finally {
      x[i] = 2;
    }
    Runnable r = () -> {}; // ERROR: [kiln.unsupported.type]
    x[i] = i > 0 ? x[i] : x.length;
  }

  @Kernel
  static void access(@Buffer(Access.READ) float[] in, @Buffer(Access.WRITE) float[] out) {
    int i = Gpu.globalId(0);
    out[i] = in[i];
    in[i] = 0f; // ERROR: [kiln.buffer.access]
    out[i] = out[i] + 1f; // ERROR: [kiln.buffer.access]
  }

  @Kernel
  static void hugePrivate(int[] x) {
    int i = Gpu.globalId(0);
    int[] small = new int[1024];
    int[] huge = new int[1 << 20]; // ERROR: [kiln.private.size]
    int[] more = new int[4];
    if (i < x.length) {
      small[i & 1023] = i;
      huge[i] = small[i & 1023];
      more[i & 3] = huge[i];
      x[i] = more[i & 3];
    }
  }

  @Kernel
  static void atomicOnPrivate(int[] x) {
    int[] own = new int[4];
    Gpu.atomicAdd(own, 0, 1); // ERROR: [kiln.atomic.target]
    x[0] = own[0];
  }

  // lowering's errors and the checks' errors of one kernel, in one build
  @Kernel
  static void arrays(float[] x, int n) {
    int i = Gpu.globalId(0);
    float[] scratch = new float[n]; // ERROR: [kiln.private.length]
    float[] none = {}; // ERROR: [kiln.private.length]
    String label = "a"; // ERROR: [kiln.unsupported.type]
    if (i < x.length) {
      float[] tile = Gpu.sharedFloats(64); // ERROR: [kiln.shared.declaration]
      tile[0] = scratch[0];
      x[i] = tile[0];
    }
    int[] sized = Gpu.sharedInts(n + 1); // ERROR: [kiln.shared.declaration]
    x[i] = sized[0];
  }

  // a bad signature once hid every body error of the file
  @Kernel
  static int returnsSomething(int[] x) { // ERROR: [kiln.kernel.notVoid]
    return x[0];
  }

  @Kernel
  static void broadcastFromAVaryingLane(float[] x) {
    int i = Gpu.globalId(0);
    x[i] = Gpu.subgroupBroadcast(x[i], i); // ERROR: [kiln.subgroup.lane]
  }

  @Kernel
  static void clusterOfAVaryingSize(float[] x, int[] y) {
    int i = Gpu.globalId(0);
    x[i] = Gpu.subgroupClusteredAdd(x[i], y[0]); // ERROR: [kiln.subgroup.cluster]
    y[i] = Gpu.subgroupClusteredMax(y[i], 6); // ERROR: [kiln.subgroup.cluster]
  }

  @Kernel
  static void typeTest(float[] x, int[] y) {
    int i = Gpu.globalId(0);
    y[i] = ((Object) x) instanceof float[] ? 1 : 0; // ERROR: [kiln.unsupported.expression]
  }

  @Kernel(workgroup = {32})
  static void matrixValues(short[] a, float[] c, int n) {
    short[] widened = Gpu.sharedShorts(256);
    MatrixAccumulator sum = Gpu.fillAccumulator(0f);
    MatrixA fromWidened = Gpu.loadMatrixA(widened, 0, 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR); // ERROR: [kiln.matrix.memory]
    float[] own = new float[256];
    MatrixAccumulator inShared = Gpu.loadAccumulator(own, 0, 16, MatrixLayout.ROW_MAJOR); // ERROR: [kiln.matrix.memory]
    Gpu.storeAccumulator(sum, c, 0, 16, n > 0 ? MatrixLayout.ROW_MAJOR : MatrixLayout.COLUMN_MAJOR); // ERROR: [kiln.matrix.constant]
    MatrixAccumulator chosen = n > 0 ? sum : inShared; // ERROR: [kiln.matrix.use]
    MatrixA left = Gpu.loadMatrixA(a, 0, 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    MatrixB right = Gpu.loadMatrixB(a, 0, 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    MatrixB typed = Gpu.loadMatrixB(a, 0, 16, n > 0 ? MatrixElement.FLOAT16 : MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR); // ERROR: [kiln.matrix.constant]
    MatrixB brain = Gpu.loadMatrixB(a, 0, 16, MatrixElement.BFLOAT16, MatrixLayout.ROW_MAJOR);
    MatrixAccumulator product = Gpu.multiplyAdd(left, brain, sum); // ERROR: [kiln.matrix.element]
    left = Gpu.loadMatrixA(a, 16, 16, MatrixElement.BFLOAT16, MatrixLayout.ROW_MAJOR); // ERROR: [kiln.matrix.element]
    Gpu.multiplyAdd(left, right, sum); // ERROR: [kiln.matrix.use]
    MatrixAccumulator mixed = Gpu.addAccumulators(sum, n > 0 ? sum : sum); // ERROR: [kiln.matrix.use]
    MatrixAccumulator late; // ERROR: [kiln.matrix.use]
  }

  @Kernel(workgroup = {32})
  static void matrixLanes(short[] a, float[] c, int n) {
    MatrixAccumulator sum = Gpu.fillAccumulator(0f);
    if (Gpu.globalId(0) < n) {
      sum = Gpu.fillAccumulator(1f); // ERROR: [kiln.matrix.divergent]
    }
    MatrixA left = Gpu.loadMatrixA(a, Gpu.localId(0), 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR); // ERROR: [kiln.matrix.operand]
    Gpu.storeAccumulator(sum, c, Gpu.workgroupId(0) * 256, 16, MatrixLayout.ROW_MAJOR);
  }

  @Kernel(workgroup = {32})
  static void matrixHelpers(short[] a, float[] c) {
    MatrixAccumulator sum = Gpu.fillAccumulator(0f);
    storeTile(sum, c); // ERROR: [kiln.matrix.use]
    MatrixA left = loadTile(a); // ERROR: [kiln.matrix.use]
  }

  private static void storeTile(MatrixAccumulator tile, float[] c) {
    Gpu.storeAccumulator(tile, c, 0, 16, MatrixLayout.ROW_MAJOR);
  }

  private static MatrixA loadTile(short[] a) {
    return Gpu.loadMatrixA(a, 0, 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
  }

  @Kernel
  static void copies(short[] a, int[] b, int n) {
    short[] own = new short[8];
    System.arraycopy(a, 0, own, 0, n); // ERROR: [kiln.copy.length]
    System.arraycopy(a, 0, own, 0, 129); // ERROR: [kiln.copy.length]
    System.arraycopy(a, 0, b, 0, 4); // ERROR: [kiln.copy.types]
    b[0] = own[0];
  }

  static final int BEFORE_FIRST = -3;

  @Kernel(boundsChecks = false)
  static void constantIndices(float[] x, int[] io, float[] y) {
    float[] own = new float[4];
    x[-1] = 2f; // ERROR: [kiln.index.constant]
    Gpu.atomicAdd(io, -1, 1); // ERROR: [kiln.index.constant]
    own[4] = 1f; // ERROR: [kiln.index.constant]
    y[0] = own[-2]; // ERROR: [kiln.index.constant]
    System.arraycopy(x, 0, own, 2, 4); // ERROR: [kiln.index.constant]
    x[BEFORE_FIRST] += 1f; // ERROR: [kiln.index.constant]
    own[3] = x[0] + own[0]; // the first and last elements: no error
    y[1] = own[3];
  }

  @Kernel
  static void constantIndexChecked(float[] x) {
    x[-1]++; // ERROR: [kiln.index.constant]
  }

  static final class Vec {
    final float x;

    Vec(float x) {
      this.x = x;
    }
  }

  /** What a new user wrote: each mistake gets one error, with the fix for what the value was for. */
  @Kernel
  static void firstKernels(float[] x, int seed) {
    int i = Gpu.globalId(0);
    java.util.Random random = new java.util.Random(seed); // ERROR: [kiln.unsupported.type]
    java.util.function.Supplier<Float> next = () -> 1f; // ERROR: [kiln.unsupported.type]
    java.util.function.IntUnaryOperator twice = k -> 2 * k; // ERROR: [kiln.unsupported.type]
    java.util.List<Float> seen = new java.util.ArrayList<>(); // ERROR: [kiln.unsupported.type]
    Vec v = new Vec(x[i]); // ERROR: [kiln.unsupported.type]
    x[i] = v.x + next.get() + twice.applyAsInt(i) + random.nextFloat() + seen.size();
    float wave = (float) Math.sin(x[i]) // ERROR: [kiln.unsupported.mathDouble]
        * (float) Math.exp(-x[i]); // ERROR: [kiln.unsupported.mathDouble]
    x[i] = wave > 0 ? Math.ulp(wave) : (float) Math.cos(wave); // ERROR: [kiln.unsupported.mathDouble]
  }

  static float rowSum(float[] row) {
    return row[0] + row[1];
  }

  /** Private arrays of two dimensions: what is not supported, each with its error. */
  @Kernel
  static void twoDimensions(float[] x, int n) {
    float[][] t = new float[2][4];
    float[][] sized = new float[n][4]; // ERROR: [kiln.private.length]
    float[][] ragged = new float[4][]; // ERROR: [kiln.unsupported.localArray]
    float[][] nested = {{1f, 2f}, {3f, 4f}}; // ERROR: [kiln.unsupported.localArray]
    x[0] = rowSum(t[1]); // ERROR: [kiln.helper.array]
    System.arraycopy(t, 0, t, 1, 1); // ERROR: [kiln.unsupported.expression]
    x[1] = t[1][3] + t[0].length;
  }

  /** Local array variables that name buffers: what is not supported, each with its error. */
  @Kernel
  static void aliases(@dev.kiln.annotations.Buffer(dev.kiln.annotations.Access.READ) float[] in,
      float[] out, int[] h1, int[] h2) {
    int i = Gpu.globalId(0);
    float[] x = in;
    x[i] = 1f; // ERROR: [kiln.buffer.access]
    float[] own = new float[4];
    float[] y = own; // ERROR: [kiln.unsupported.alias]
    float[] z = out;
    int k = i > 2 ? (z = in).length : 0; // ERROR: [kiln.unsupported.alias]
    int[] h = (i & 1) == 0 ? h1 : h2;
    Gpu.atomicAdd(h, 0, 1); // ERROR: [kiln.unsupported.alias]
    System.arraycopy(h, 0, h1, 1, 1); // ERROR: [kiln.unsupported.alias]
    out[i] = k + z[0] + BodyHelpers.first(h); // ERROR: [kiln.unsupported.alias]
    float[][] t = new float[2][2];
    out[i] += BodyHelpers.corner(t); // ERROR: [kiln.unsupported.expression]
  }

  @Kernel(workgroup = {32})
  static void sizedBesideTiles(short[] a, float[] c, int n) {
    float[] staged = Gpu.sharedFloats(n); // ERROR: [kiln.shared.length]
    MatrixA left = Gpu.loadMatrixA(a, 0, 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    MatrixB right = Gpu.loadMatrixB(a, 0, 16, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    Gpu.storeAccumulator(Gpu.multiplyAdd(left, right, Gpu.fillAccumulator(0f)), staged, 0, 16, MatrixLayout.ROW_MAJOR);
    c[Gpu.globalId(0)] = staged[0];
  }

  @Kernel(workgroup = {32})
  static void settingsOfHelpers(short[] a, float[] c, int n) {
    tileSum(a, c, MatrixElement.FLOAT16, MatrixLayout.ROW_MAJOR);
    tileSum(a, c, n > 0 ? MatrixElement.FLOAT16 : MatrixElement.BFLOAT16, MatrixLayout.ROW_MAJOR); // ERROR: [kiln.helper.setting]
    BodyHelpers.layout(c, MatrixLayout.ROW_MAJOR); // ERROR: [kiln.helper.setting]
    c[1] = compared(MatrixElement.FLOAT16);
  }

  static float compared(MatrixElement element) {
    MatrixElement same = element; // ERROR: [kiln.unsupported.type]
    return 1f;
  }

  static void tileSum(short[] a, float[] c, MatrixElement element, MatrixLayout layout) {
    MatrixA left = Gpu.loadMatrixA(a, 0, 16, element, layout);
    MatrixB right = Gpu.loadMatrixB(a, 0, 16, element, MatrixLayout.ROW_MAJOR);
    Gpu.storeAccumulator(Gpu.multiplyAdd(left, right, Gpu.fillAccumulator(0f)), c, 0, 16, layout);
  }
}

final class BodyHelpers {
  static int first(int[] values) {
    return values[0];
  }

  static float corner(float[][] values) {
    return values[1][1];
  }

  static void layout(float[] values, MatrixLayout layout) {
    values[0] = 1f;
  }
}
