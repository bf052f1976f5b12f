import sys
p='library/src/main/java/dev/kiln/library/GemmKernels.java'
s=open(p).read()
v=sys.argv[1]
if 'nn' in v:
    i=s.index('    if (transA == 0 && transB == 0) {')
    j=s.index('  /**', i)
    s=s[:i]+'    stages(a, b, blockA, blockB, sums, m, n, k, offsetA, rowA, offsetB, rowB, 0, 1); // measurement: one layout\n  }\n\n'+s[j:]
if 'direct' in v:
    # floatsInQuads: store the tile from the registers where it lies inside c (no epilogue: measurement only)
    old='''        offsetB & -4,
        ldb & -4,
        transA,
        transB);
    finish('''
    new='''        offsetB & -4,
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
    if (m < 0) finish('''
    assert old in s; s=s.replace(old,new,1)
open(p,'w').write(s)
