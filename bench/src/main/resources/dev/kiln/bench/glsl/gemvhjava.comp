#version 450
// GEMV twin in Java's order: dev.kiln.library.GemvKernels.halves by hand (rows of float16 bits, cols
// a multiple of 16, no offsets). Warp w of the workgroup takes row 8 * group + w; lane j the 32-byte
// chunks (16 halves) starting at columns (32t + j) * 16, the next chunk read before this one's
// products are added; each product and each sum rounded to float (precise: no fused multiply-add);
// the lanes' partials folded as a tree by shuffles down (16, 8, 4, 2, 1). The same bits as Kiln.
#extension GL_KHR_shader_subgroup_shuffle_relative : enable
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uvec4 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { vec4 x[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; int rows; int cols; };
void add8(uvec4 w, vec4 lo, vec4 hi, inout precise float acc) {
  vec2 p = unpackHalf2x16(w.x); acc += p.x * lo.x; acc += p.y * lo.y;
  p = unpackHalf2x16(w.y); acc += p.x * lo.z; acc += p.y * lo.w;
  p = unpackHalf2x16(w.z); acc += p.x * hi.x; acc += p.y * hi.y;
  p = unpackHalf2x16(w.w); acc += p.x * hi.z; acc += p.y * hi.w;
}
void main() {
  uint lane = gl_LocalInvocationID.x & 31u;
  uint row = (gl_WorkGroupID.x + firstGroup) * 8u + gl_LocalInvocationID.x / 32u;
  precise float partial = 0.0;
  if (row < uint(rows)) {
    uint words = uint(cols) / 8u; // 16-byte words a row
    uint base = row * words;
    uint w = lane * 2u;
    uvec4 n0 = uvec4(0), n1 = uvec4(0);
    if (w < words) { n0 = a[base + w]; n1 = a[base + w + 1u]; }
    for (; w < words; w += 64u) {
      uvec4 c0 = n0, c1 = n1;
      if (w + 64u < words) { n0 = a[base + w + 64u]; n1 = a[base + w + 65u]; }
      add8(c0, x[2u * w], x[2u * w + 1u], partial);
      add8(c1, x[2u * w + 2u], x[2u * w + 3u], partial);
    }
  }
  precise float v = partial;
  for (uint s = 16u; s > 0u; s >>= 1u) {
    precise float above = subgroupShuffleDown(v, s);
    v += above;
  }
  if (lane == 0u && row < uint(rows)) y[row] = v;
}
