#version 450
// Hand-written twin of Elementwise.copy (dev.kiln.bench): 4 floats per invocation with vec4 loads and stores.
// Kiln's launch ABI: bindings in parameter order, push constants count (in vec4s here), firstGroup.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer From { vec4 from[]; };
layout(std430, set = 0, binding = 1) writeonly buffer To { vec4 to[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; };
void main() {
  uint i = gl_GlobalInvocationID.x + firstGroup * 256u;
  if (i < count) to[i] = from[i];
}
