#version 450
// Doubles: one dvec2 (2 doubles, 16 bytes) per invocation.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer From { dvec2 from[]; };
layout(std430, set = 0, binding = 1) writeonly buffer To { dvec2 to[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; };
void main() {
  uint i = gl_GlobalInvocationID.x + firstGroup * 256u;
  if (i < count) to[i] = from[i];
}
