# Session 44: where the library's float32 GEMM (floatsInQuadsScaled, 31.2 TFLOP/s at 4096 on the H100) loses
# to session 42's measurement form c0o (38.7: the plain layout alone, fetches untested, offsets, each tile
# row copied to c). Patches GemmKernels.java of c2fc5e6 in place: python3 variants.py <variant> <file>.
# Measurement builds only; right at whole blocks (m, n multiples of 128, k of 8) with both factors plain.
#   p    floatsInQuadsScaled with the plain layout's stages alone (no copies for the other three)
#   pi   p with each fetch one 16-byte copy, untested
#   pis  pi with the store untested: each tile row read (beta not 0), scaled, copied to c
import sys
v, p = sys.argv[1], sys.argv[2]
s = open(p).read()

def body_of(name):
    start = s.index('  static void %s(' % name)
    brace = s.index('{', s.index(') {', start))
    end = s.index('\n  }\n', brace)
    return brace + 1, end

b, e = body_of('floatsInQuadsScaled')
fetch = 'fetchInside' if v in ('pi', 'pis') else 'fetch'
store = '''    int r0 = Gpu.workgroupId(1) * BLOCK + Gpu.localId(1) * TILE;
    int c0 = Gpu.workgroupId(0) * BLOCK + Gpu.localId(0) * TILE;
    float[] row = new float[TILE];
    for (int i = 0; i < TILE; i++) {
      int at = (offsetC & -4) + (r0 + i) * (ldc & -4) + c0;
      if (beta != 0f) {
        System.arraycopy(c, at, row, 0, TILE);
      }
      for (int j = 0; j < TILE; j++) {
        row[j] = scaled(sums[i * TILE + j], row[j], alpha, beta);
      }
      System.arraycopy(row, 0, c, at, TILE);
    }''' if v == 'pis' else '    store(c, sums, m, n, offsetC & -4, ldc & -4, alpha, beta);'
body = '''
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] sums = new float[TILE * TILE];
    stagesOne(a, b, blockA, blockB, sums, m, n, k, offsetA & -4, lda & -4, offsetB & -4, ldb & -4);
%s
''' % store
s = s[:b] + body + s[e:]
stages = '''
  private static void stagesOne(float[] a, float[] b, float[] blockA, float[] blockB, float[] sums,
      int m, int n, int k, int offsetA, int rowA, int offsetB, int rowB) {
    int self = Gpu.localId(1) * SIDE + Gpu.localId(0);
    int firstRow = Gpu.workgroupId(1) * BLOCK;
    int firstColumn = Gpu.workgroupId(0) * BLOCK;
    float[] nextA = new float[QUAD];
    float[] nextB = new float[QUAD];
    FA(a, offsetA, rowA, 0, m, firstRow, 0, k, self, nextA);
    FA(b, offsetB, rowB, 1, n, firstColumn, 0, k, self, nextB);
    for (int k0 = 0; k0 < k; k0 += DEPTH) {
      place(nextA, blockA, 0, self);
      place(nextB, blockB, 1, self);
      Gpu.barrier();
      if (k0 + DEPTH < k) {
        FA(a, offsetA, rowA, 0, m, firstRow, k0 + DEPTH, k, self, nextA);
        FA(b, offsetB, rowB, 1, n, firstColumn, k0 + DEPTH, k, self, nextB);
      }
      multiply(blockA, blockB, sums);
      Gpu.barrier();
    }
  }

  private static void fetchInside(float[] x, int offset, int row, int alongK, int extent, int first,
      int k0, int k, int self, float[] next) {
    if (alongK != 0) {
      System.arraycopy(x, offset + (k0 + self / (BLOCK / QUAD)) * row + first + self % (BLOCK / QUAD) * QUAD, next, 0, QUAD);
    } else {
      System.arraycopy(x, offset + (first + self / (DEPTH / QUAD)) * row + k0 + self % (DEPTH / QUAD) * QUAD, next, 0, QUAD);
    }
  }
'''.replace('FA', fetch)
at = s.index('  /** {@link #fetch} of 16-bit floats')
s = s[:at] + stages.lstrip('\n') + '\n' + s[at:]
open(p, 'w').write(s)
