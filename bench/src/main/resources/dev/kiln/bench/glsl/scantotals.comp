#version 450
// Hand-written twin of dev.kiln.library.ScanKernels.intTotals: each tile's total, a tile being
// 2048 ints, 8 consecutive ones to each of 256 invocations (one 32-byte read each), their sums
// scanned Hillis-Steele in shared memory and the last invocation's inclusive sum written. The
// buffer is bound twice, as quads and as words, as Kiln's modules view it.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer In { ivec4 quads[]; };
layout(std430, set = 0, binding = 0) readonly buffer InWords { int values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Totals { int totals[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; int n; };
shared int cells[256];
void main() {
  uint l = gl_LocalInvocationID.x;
  uint w = gl_WorkGroupID.x + firstGroup;
  int first = int(w * 2048u + l * 8u);
  int run = 0;
  if (first <= n - 8) {
    ivec4 a = quads[first / 4];
    ivec4 b = quads[first / 4 + 1];
    run = a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w;
  } else {
    for (int k = 0; k < 8; k++) {
      run += first + k < n ? values[first + k] : 0;
    }
  }
  cells[l] = run;
  barrier();
  for (uint s = 1u; s < 256u; s <<= 1u) {
    int before = l >= s ? cells[l - s] : 0;
    barrier();
    cells[l] += before;
    barrier();
  }
  if (l == 255u) {
    totals[w] = cells[255];
  }
}
