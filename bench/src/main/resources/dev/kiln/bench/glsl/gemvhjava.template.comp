#version 450
// The Java-order GEMV twin (gemvhjava.comp: 32-byte chunks, Kiln's bits) with Kiln's float16 decode
// in pieces, to price each: CHECK 1 tests each chunk for non-normal values as Kiln does (one
// unsigned maximum an element, then a branch to an exact slow path); DECODE 1 decodes by integer
// operations as Kiln's normalHalf does, DECODE 0 by unpackHalf2x16. Normal float16 data only.
#extension GL_KHR_shader_subgroup_shuffle_relative : enable
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uvec4 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { vec4 x[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; int rows; int cols; };
vec2 halves(uint w) {
#if DECODE
  int lo = bitfieldExtract(int(w), 0, 16), hi = bitfieldExtract(int(w), 16, 16);
  return vec2(intBitsToFloat(((lo << 13) & int(0x8fffe000u)) + 0x38000000),
              intBitsToFloat(((hi << 13) & int(0x8fffe000u)) + 0x38000000));
#else
  return unpackHalf2x16(w);
#endif
}
void add8(uvec4 w, vec4 lo, vec4 hi, inout precise float acc) {
  vec2 p = halves(w.x); acc += p.x * lo.x; acc += p.y * lo.y;
  p = halves(w.y); acc += p.x * lo.z; acc += p.y * lo.w;
  p = halves(w.z); acc += p.x * hi.x; acc += p.y * hi.y;
  p = halves(w.w); acc += p.x * hi.z; acc += p.y * hi.w;
}
void addExact(uvec4 w, vec4 lo, vec4 hi, inout precise float acc) {
  vec2 p = unpackHalf2x16(w.x); acc += p.x * lo.x; acc += p.y * lo.y;
  p = unpackHalf2x16(w.y); acc += p.x * lo.z; acc += p.y * lo.w;
  p = unpackHalf2x16(w.z); acc += p.x * hi.x; acc += p.y * hi.y;
  p = unpackHalf2x16(w.w); acc += p.x * hi.z; acc += p.y * hi.w;
}
int highest(uvec4 w) {
  int h = int(0x80000000u);
  for (int i = 0; i < 4; i++) {
    h = max(h, (bitfieldExtract(int(w[i]), 0, 16) & 0x7c00) + (int(0x80000000u) - 0x400));
    h = max(h, (bitfieldExtract(int(w[i]), 16, 16) & 0x7c00) + (int(0x80000000u) - 0x400));
  }
  return h;
}
void main() {
  uint lane = gl_LocalInvocationID.x & 31u;
  uint row = (gl_WorkGroupID.x + firstGroup) * 8u + gl_LocalInvocationID.x / 32u;
  precise float partial = 0.0;
  if (row < uint(rows)) {
    uint words = uint(cols) / 8u;
    uint base = row * words;
    uint w = lane * 2u;
    uvec4 n0 = uvec4(0), n1 = uvec4(0);
    if (w < words) { n0 = a[base + w]; n1 = a[base + w + 1u]; }
    for (; w < words; w += 64u) {
      uvec4 c0 = n0, c1 = n1;
      if (w + 64u < words) { n0 = a[base + w + 64u]; n1 = a[base + w + 65u]; }
#if CHECK
      if (max(highest(c0), highest(c1)) <= int(0x80000000u) + 0x7400) {
        add8(c0, x[2u * w], x[2u * w + 1u], partial);
        add8(c1, x[2u * w + 2u], x[2u * w + 3u], partial);
      } else {
        addExact(c0, x[2u * w], x[2u * w + 1u], partial);
        addExact(c1, x[2u * w + 2u], x[2u * w + 3u], partial);
      }
#else
      add8(c0, x[2u * w], x[2u * w + 1u], partial);
      add8(c1, x[2u * w + 2u], x[2u * w + 3u], partial);
#endif
    }
  }
  precise float v = partial;
  for (uint s = 16u; s > 0u; s >>= 1u) {
    precise float above = subgroupShuffleDown(v, s);
    v += above;
  }
  if (lane == 0u && row < uint(rows)) y[row] = v;
}
