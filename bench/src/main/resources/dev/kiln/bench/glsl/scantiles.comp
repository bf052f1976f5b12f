#version 450
// Hand-written twin of dev.kiln.library.ScanKernels.intTiles: each tile of 2048 ints scanned
// (inclusive) from its offset (offsets holds the tiles' totals scanned inclusive: tile w starts
// from offsets[w - 1]), 8 consecutive ones to each of 256 invocations, read and written
// 32 bytes at a time; the invocations' sums scanned Hillis-Steele in shared memory.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer In { ivec4 quads[]; };
layout(std430, set = 0, binding = 0) readonly buffer InWords { int values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { ivec4 outQuads[]; };
layout(std430, set = 0, binding = 1) writeonly buffer OutWords { int outValues[]; };
layout(std430, set = 0, binding = 2) readonly buffer Offsets { int offsets[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; int n; int offsetsGiven; };
shared int cells[256];
void main() {
  uint l = gl_LocalInvocationID.x;
  uint w = gl_WorkGroupID.x + firstGroup;
  int first = int(w * 2048u + l * 8u);
  int mine[8];
  bool whole = first <= n - 8;
  if (whole) {
    ivec4 a = quads[first / 4];
    ivec4 b = quads[first / 4 + 1];
    mine = int[8](a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w);
  } else {
    for (int k = 0; k < 8; k++) {
      mine[k] = first + k < n ? values[first + k] : 0;
    }
  }
  int run = 0;
  for (int k = 0; k < 8; k++) {
    run += mine[k];
  }
  cells[l] = run;
  barrier();
  for (uint s = 1u; s < 256u; s <<= 1u) {
    int before = l >= s ? cells[l - s] : 0;
    barrier();
    cells[l] += before;
    barrier();
  }
  int carry = cells[l] - run + (offsetsGiven != 0 && w > 0u ? offsets[w - 1u] : 0);
  for (int k = 0; k < 8; k++) {
    carry += mine[k];
    mine[k] = carry;
  }
  if (whole) {
    outQuads[first / 4] = ivec4(mine[0], mine[1], mine[2], mine[3]);
    outQuads[first / 4 + 1] = ivec4(mine[4], mine[5], mine[6], mine[7]);
  } else {
    for (int k = 0; k < 8 && first + k < n; k++) {
      outValues[first + k] = mine[k];
    }
  }
}
