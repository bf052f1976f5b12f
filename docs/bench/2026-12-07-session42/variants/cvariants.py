# Session 42: where floatsInQuadsScaled (this head's float32 GEMM, 33.5 TFLOP/s in its measurement form
# b5) loses to the bench kernel it descends from (40.6 unchecked). Patches GemmKernels.java of d5416f6
# in place: python3 cvariants.py <variant>. Measurement builds only.
#   c0  the product's plain layout alone, fetches untested (one copy each), offsets 0, each tile copied
#       to c unscaled and untested (the bench kernel with the library's row lengths; wrong but at whole
#       blocks, alpha 1, beta 0)
#   c1  c0 with the offsets and the landed store() (alpha, beta, c's edges)
#   c2  c1 with the library's tested fetch()
#   d1  this head with fetch()'s test made uniform: a whole stage of the block inside the operand is
#       one copy (a test on the workgroup's block and k0), else entry by entry (right at any shape)
import sys
p = 'library/src/main/java/dev/kiln/library/GemmKernels.java'
s = open(p).read()
v = sys.argv[1]

def body_of(name):
    start = s.index('  static void %s(' % name)
    brace = s.index('{', s.index(') {', start))
    end = s.index('\n  }\n', brace)
    return brace + 1, end

if v in ('c0', 'c1', 'c2'):
    b, e = body_of('floatsInQuadsScaled')
    fetch = 'fetchInside' if v in ('c0', 'c1') else 'fetch'
    offs = '0, lda & -4, 0, ldb & -4' if v == 'c0' else 'offsetA & -4, lda & -4, offsetB & -4, ldb & -4'
    store = ('''    int r0 = Gpu.workgroupId(1) * BLOCK + Gpu.localId(1) * TILE;
    int c0 = Gpu.workgroupId(0) * BLOCK + Gpu.localId(0) * TILE;
    for (int i = 0; i < TILE; i++) {
      System.arraycopy(sums, i * TILE, c, (r0 + i) * (ldc & -4) + c0, TILE);
    }''' if v == 'c0' else '    store(c, sums, m, n, offsetC & -4, ldc & -4, alpha, beta);')
    body = '''
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] sums = new float[TILE * TILE];
    stagesOne(a, b, blockA, blockB, sums, m, n, k, %s);
%s
''' % (offs, store)
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
      System.arraycopy(x, offset + (k0 + self / (BLOCK / QUAD)) * row + first + self %% (BLOCK / QUAD) * QUAD, next, 0, QUAD);
    } else {
      System.arraycopy(x, offset + (first + self / (DEPTH / QUAD)) * row + k0 + self %% (DEPTH / QUAD) * QUAD, next, 0, QUAD);
    }
  }
'''.replace('FA', fetch)
    at = s.index('  /** {@link #fetch} of 16-bit floats')
    s = s[:at] + stages.lstrip('\n') % () + '\n' + s[at:]
elif v == 'd1':
    old = '''    if (alongK != 0) {
      int kk = k0 + self / (BLOCK / QUAD);
      int o = first + self % (BLOCK / QUAD) * QUAD;
      if (kk < k && o + QUAD <= extent) {'''
    new = '''    boolean whole = first + BLOCK <= extent && k0 + DEPTH <= k;
    if (alongK != 0) {
      int kk = k0 + self / (BLOCK / QUAD);
      int o = first + self % (BLOCK / QUAD) * QUAD;
      if (whole) {'''
    assert old in s
    s = s.replace(old, new)
    old2 = '''      if (o < extent && kk + QUAD <= k) {
        System.arraycopy(x, offset + o * row + kk, next, 0, QUAD);'''
    assert old2 in s
    s = s.replace(old2, '''      if (whole) {
        System.arraycopy(x, offset + o * row + kk, next, 0, QUAD);''')
else:
    sys.exit('unknown variant ' + v)
open(p, 'w').write(s)
