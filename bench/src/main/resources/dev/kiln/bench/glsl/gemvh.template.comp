#version 450
// GEMV twin: y = A x, A float16 rows-major (rows x cols), x and y float. 256 invocations, 8 warps;
// each warp RPW rows; lane j takes the 16-byte words (8 halves) j, j + 32, ... of each row,
// UNROLL words in flight; fused multiply-adds into one float per row, folded with subgroupAdd.
// cols a multiple of 8 * 32 * UNROLL.
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uvec4 a[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { vec4 x[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; int rows; int cols; };
float dot8(uvec4 w, vec4 lo, vec4 hi, float acc) {
  vec2 p = unpackHalf2x16(w.x); acc = fma(p.x, lo.x, acc); acc = fma(p.y, lo.y, acc);
  p = unpackHalf2x16(w.y); acc = fma(p.x, lo.z, acc); acc = fma(p.y, lo.w, acc);
  p = unpackHalf2x16(w.z); acc = fma(p.x, hi.x, acc); acc = fma(p.y, hi.y, acc);
  p = unpackHalf2x16(w.w); acc = fma(p.x, hi.z, acc); acc = fma(p.y, hi.w, acc);
  return acc;
}
void main() {
  uint lane = gl_LocalInvocationID.x & 31u;
  uint warp = (gl_WorkGroupID.x + firstGroup) * 8u + gl_LocalInvocationID.x / 32u;
  uint words = uint(cols) / 8u;
  float acc[RPW];
  for (int r = 0; r < RPW; r++) acc[r] = 0.0;
  uint first = warp * RPW;
  for (uint w = lane; w < words; w += 32u * UNROLL) {
    uvec4 m[RPW][UNROLL];
    for (int r = 0; r < RPW; r++) {
      uint row = min(first + r, uint(rows) - 1u);
      for (int u = 0; u < UNROLL; u++) m[r][u] = a[row * words + w + 32u * u];
    }
    for (int u = 0; u < UNROLL; u++) {
      vec4 lo = x[2u * (w + 32u * u)], hi = x[2u * (w + 32u * u) + 1u];
      for (int r = 0; r < RPW; r++) acc[r] = dot8(m[r][u], lo, hi, acc[r]);
    }
  }
  for (int r = 0; r < RPW; r++) {
    float total = subgroupAdd(acc[r]);
    if (lane == 0u && first + r < uint(rows)) y[first + r] = total;
  }
}
