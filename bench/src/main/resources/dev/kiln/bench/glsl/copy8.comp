#version 450
// Coarsening study: 8 floats per invocation as two adjacent vec4s (count is in invocations).
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer From { vec4 from[]; };
layout(std430, set = 0, binding = 1) writeonly buffer To { vec4 to[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; };
void main() {
  uint i = gl_GlobalInvocationID.x + firstGroup * 256u;
  if (i < count) {
    to[2u * i] = from[2u * i];
    to[2u * i + 1u] = from[2u * i + 1u];
  }
}
