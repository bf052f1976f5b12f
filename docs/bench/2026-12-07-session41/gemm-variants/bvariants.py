import sys
p='library/src/main/java/dev/kiln/library/GemmKernels.java'
s=open(p).read()
v=sys.argv[1]
start=s.index('  static void floatsInQuads(')
brace=s.index('{', s.index(') {', start))
end=s.index('\n  }\n', brace)
header=s[start:brace+1]
# the fetches: bench-style (unconditional) or the library's tested fetch
if v in ('b0','b1'):
    fetchA='System.arraycopy(a, atA + k0 + DEPTH, nextA, 0, 4);'
    fetchB='System.arraycopy(b, atB + (k0 + DEPTH) * wb, nextB, 0, 4);'
    first='System.arraycopy(a, atA, nextA, 0, 4);\n    System.arraycopy(b, atB, nextB, 0, 4);'
else:
    fetchA='fetch(a, oa, wa, 0, m, firstRow, k0 + DEPTH, k, self, nextA);'
    fetchB='fetch(b, ob, wb, 1, n, firstColumn, k0 + DEPTH, k, self, nextB);'
    first='fetch(a, oa, wa, 0, m, firstRow, 0, k, self, nextA);\n    fetch(b, ob, wb, 1, n, firstColumn, 0, k, self, nextB);'
offs = ('int oa = 0;\n    int ob = 0;\n    int oc = 0;' if v=='b0' else 'int oa = offsetA & -4;\n    int ob = offsetB & -4;\n    int oc = offsetC & -4;')
store = '''    for (int i = 0; i < TILE; i++) {
      System.arraycopy(sums, i * TILE, c, oc + (firstRow + y * TILE + i) * wc + firstColumn + x * TILE, TILE);
    }'''
if v=='b3':
    store='''    float[] staged = Gpu.sharedFloats(BLOCK * BLOCK / PASSES);
    finish(c, bias, residual, sums, staged, m, n, oc, wc, alpha, beta, biasAxis, activation, withResidual);'''
body='''
    float[] blockA = Gpu.sharedFloats(DEPTH * BLOCK);
    float[] blockB = Gpu.sharedFloats(DEPTH * BLOCK);
    int wa = lda & -4;
    int wb = ldb & -4;
    int wc = ldc & -4;
    %s
    int x = Gpu.localId(0);
    int y = Gpu.localId(1);
    int self = y * 16 + x;
    int firstRow = Gpu.workgroupId(1) * BLOCK;
    int firstColumn = Gpu.workgroupId(0) * BLOCK;
    int rowOfA = self / 2;
    int kOfA = self %% 2 * 4;
    int kOfB = self / 32;
    int columnOfB = self %% 32 * 4;
    int atA = oa + (firstRow + rowOfA) * wa + kOfA;
    int atB = ob + kOfB * wb + firstColumn + columnOfB;
    float[] sums = new float[TILE * TILE];
    float[] rowA = new float[TILE];
    float[] columnB = new float[TILE];
    float[] nextA = new float[4];
    float[] nextB = new float[4];
    %s
    for (int k0 = 0; k0 < k; k0 += DEPTH) {
      for (int t = 0; t < 4; t++) {
        blockA[(kOfA + t) * BLOCK + rowOfA] = nextA[t];
      }
      System.arraycopy(nextB, 0, blockB, kOfB * BLOCK + columnOfB, 4);
      Gpu.barrier();
      if (k0 + DEPTH < k) {
        %s
        %s
      }
      for (int kk = 0; kk < DEPTH; kk++) {
        System.arraycopy(blockA, kk * BLOCK + y * TILE, rowA, 0, TILE);
        System.arraycopy(blockB, kk * BLOCK + x * TILE, columnB, 0, TILE);
        for (int i = 0; i < TILE; i++) {
          for (int j = 0; j < TILE; j++) {
            sums[i * TILE + j] = Gpu.fma(rowA[i], columnB[j], sums[i * TILE + j]);
          }
        }
      }
      Gpu.barrier();
    }
%s''' % (offs, first, fetchA, fetchB, store)
s=s[:brace+1]+body+s[end:]
open(p,'w').write(s)
