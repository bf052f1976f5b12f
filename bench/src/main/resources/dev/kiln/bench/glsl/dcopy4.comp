#version 450
// Doubles: two adjacent dvec2s (4 doubles) per invocation, as Kiln's vectorized code moves them.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer From { dvec2 from[]; };
layout(std430, set = 0, binding = 1) writeonly buffer To { dvec2 to[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; };
void main() {
  uint i = gl_GlobalInvocationID.x + firstGroup * 256u;
  if (i < count) {
    to[2u * i] = from[2u * i];
    to[2u * i + 1u] = from[2u * i + 1u];
  }
}
