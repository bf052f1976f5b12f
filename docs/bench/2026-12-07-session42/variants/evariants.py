# Session 42, call 2: floatsInQuadsScaled of d5416f6 takes 59 registers and runs at 1.9 TFLOP/s on the
# H100 (call 1): its 64 sums left the registers. c0 (the plain layout, untested fetches, each tile
# copied to c) kept them (127 registers, 40.6 TFLOP/s); c1 (c0 with the offsets and store()) did not
# (48). Forms of store() and the offsets, measurement only: python3 evariants.py <variant>
#   c0o  c0 with the offsets (each tile copied to c at offsetC)
#   e1   store() whose entries take beta by a select (no branch in the j loops)
#   e2   store() as two loops: a tile inside c (copies), else entry by entry
#   e3   e1 and e2
#   u    store() with its i loop written out 8 times (each sums index a constant)
import re
import sys
p = 'library/src/main/java/dev/kiln/library/GemmKernels.java'
s = open(p).read()
v = sys.argv[1]

def between(start_marker, end_marker='\n  }\n'):
    a = s.index(start_marker)
    b = s.index(end_marker, a) + len(end_marker)
    return a, b

if v == 'c0o':
    exec(open('docs/bench/2026-12-07-session42/variants/cvariants.py').read().replace("v = sys.argv[1]", "v = 'c0'").replace("open(p, 'w').write(s)", ""))
    s = s.replace("stagesOne(a, b, blockA, blockB, sums, m, n, k, 0, lda & -4, 0, ldb & -4);",
                  "stagesOne(a, b, blockA, blockB, sums, m, n, k, offsetA & -4, lda & -4, offsetB & -4, ldb & -4);")
    s = s.replace("(r0 + i) * (ldc & -4) + c0", "(offsetC & -4) + (r0 + i) * (ldc & -4) + c0")
    assert "offsetC & -4) + (r0" in s
    open(p, 'w').write(s)
    sys.exit()

a, b = between('  private static void store(')
head = s[a:s.index('    float[] row = new float[TILE];', a)]
select = 'beta != 0f ? alpha * sums[i * TILE + j] + beta * row[j] : alpha * sums[i * TILE + j]'
whole_body = '''      if (beta != 0f) {
        System.arraycopy(c, at, row, 0, TILE);
      }
      for (int j = 0; j < TILE; j++) {
        row[j] = %s;
      }
      System.arraycopy(row, 0, c, at, TILE);
''' % ('scaled(sums[i * TILE + j], row[j], alpha, beta)' if v in ('e2', 'u') else select)
edge_body = '''        for (int j = 0; j < TILE; j++) {
          if (firstColumn + j < n) {
            c[at + j] = %s;
          }
        }
''' % ('scaled(sums[i * TILE + j], beta != 0f ? c[at + j] : 0f, alpha, beta)' if v in ('e2', 'u')
       else 'beta != 0f ? alpha * sums[i * TILE + j] + beta * c[at + j] : alpha * sums[i * TILE + j]')
if v in ('e2', 'e3'):
    body = '''    float[] row = new float[TILE];
    if (firstRow + TILE <= m && firstColumn + TILE <= n) {
      for (int i = 0; i < TILE; i++) {
        int at = offsetC + (firstRow + i) * rowC + firstColumn;
%s      }
    } else {
      for (int i = 0; i < TILE; i++) {
        int at = offsetC + (firstRow + i) * rowC + firstColumn;
        if (firstRow + i < m) {
%s        }
      }
    }
  }
''' % (whole_body, edge_body)
elif v == 'e1':
    body = '''    float[] row = new float[TILE];
    for (int i = 0; i < TILE; i++) {
      int at = offsetC + (firstRow + i) * rowC + firstColumn;
      if (firstRow + i < m && firstColumn + TILE <= n) {
%s      } else if (firstRow + i < m) {
%s      }
    }
  }
''' % (whole_body, edge_body)
elif v == 'u':
    one = '''    {
      int at = offsetC + (firstRow + @@) * rowC + firstColumn;
      if (firstRow + @@ < m && firstColumn + TILE <= n) {
%s      } else if (firstRow + @@ < m) {
%s      }
    }
''' % (whole_body, edge_body)
    one = one.replace('i * TILE', '@@ * TILE')
    body = '    float[] row = new float[TILE];\n' + ''.join(one.replace('@@', str(i)) for i in range(8)) + '  }\n'
else:
    sys.exit('unknown variant ' + v)
s = s[:a] + head + body + s[b:]
open(p, 'w').write(s)
