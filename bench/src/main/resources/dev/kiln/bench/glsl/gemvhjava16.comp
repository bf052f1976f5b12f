#version 450
// GEMV twin in Java's order with 16-byte chunks: dev.kiln.library.GemvKernels.halves by hand as it
// reads with Tuning.GEMV_CHUNK_BYTES = 16 (rows of float16 bits, cols a multiple of 8). Warp w of the
// workgroup takes row 8 * group + w; lane j the 16-byte words (8 halves) j, j + 32, ..., the next
// word read before this one's products are added; each product and each sum rounded to float
// (precise: no fused multiply-add); the partials folded as a tree by shuffles down. Kiln's bits.
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
    uint words = uint(cols) / 8u;
    uint base = row * words;
    uint w = lane;
    uvec4 next = w < words ? a[base + w] : uvec4(0);
    for (; w < words; w += 32u) {
      uvec4 word = next;
      if (w + 32u < words) next = a[base + w + 32u];
      add8(word, x[2u * w], x[2u * w + 1u], partial);
    }
  }
  precise float v = partial;
  for (uint s = 16u; s > 0u; s >>= 1u) {
    precise float above = subgroupShuffleDown(v, s);
    v += above;
  }
  if (lane == 0u && row < uint(rows)) y[row] = v;
}
