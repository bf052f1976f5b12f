#version 450
// Coarsening study: a grid-stride loop of vec4s over `total` vec4s, whatever the dispatch size.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer From { vec4 from[]; };
layout(std430, set = 0, binding = 1) writeonly buffer To { vec4 to[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; uint total; };
void main() {
  uint stride = gl_NumWorkGroups.x * 256u;
  for (uint i = gl_GlobalInvocationID.x; i < total; i += stride) {
    to[i] = from[i];
  }
}
