#version 450
// Coarsening study: 16 floats per invocation as four vec4s a quarter of the buffer apart.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer From { vec4 from[]; };
layout(std430, set = 0, binding = 1) writeonly buffer To { vec4 to[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; };
void main() {
  uint i = gl_GlobalInvocationID.x + firstGroup * 256u;
  if (i < count) {
    for (uint k = 0u; k < 4u; k++) {
      to[i + k * count] = from[i + k * count];
    }
  }
}
