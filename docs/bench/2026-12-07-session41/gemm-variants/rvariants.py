import sys
p='library/src/main/java/dev/kiln/library/GemmKernels.java'
s=open(p).read()
v=sys.argv[1]
def rep(old,new):
    global s
    assert old in s, old
    s=s.replace(old,new,1)
if 'notest' in v:
    rep('''      if (kk < k && o + QUAD <= extent) {
        System.arraycopy(x, offset + kk * row + o, next, 0, QUAD);''','''      if (kk >= 0) { // measurement: no edges
        System.arraycopy(x, offset + kk * row + o, next, 0, QUAD);''')
    rep('''      if (o < extent && kk + QUAD <= k) {
        System.arraycopy(x, offset + o * row + kk, next, 0, QUAD);''','''      if (kk >= 0) { // measurement: no edges
        System.arraycopy(x, offset + o * row + kk, next, 0, QUAD);''')
if 'direct' in v:
    rep('''        offsetB & -4,
        ldb & -4,
        transA,
        transB);
    finish(''','''        offsetB & -4,
        ldb & -4,
        transA,
        transB);
    int tileRow = Gpu.workgroupId(1) * BLOCK + Gpu.localId(1) * TILE;
    int tileColumn = Gpu.workgroupId(0) * BLOCK + Gpu.localId(0) * TILE;
    if (tileRow + TILE <= m && tileColumn + TILE <= n) {
      for (int i = 0; i < TILE; i++) {
        System.arraycopy(sums, i * TILE, c, (offsetC & -4) + (tileRow + i) * (ldc & -4) + tileColumn, TILE);
      }
    }
    if (m < 0) finish(''')
if 'nooffset' in v:
    rep('''        offsetA & -4,
        lda & -4,
        offsetB & -4,
        ldb & -4,
        transA,
        transB);
    int tileRow''','''        0,
        lda & -4,
        0,
        ldb & -4,
        transA,
        transB);
    int tileRow''')
if 'nn' in v:
    i=s.index('    if (transA == 0 && transB == 0) {')
    j=s.index('  /**', i)
    s=s[:i]+'    stages(a, b, blockA, blockB, sums, m, n, k, offsetA, rowA, offsetB, rowB, 0, 1); // measurement: one layout\n  }\n\n'+s[j:]
open(p,'w').write(s)
