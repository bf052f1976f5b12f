#version 450
// Hand-written scalar twin of Elementwise.copy (dev.kiln.bench): one float per invocation.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer From { float from[]; };
layout(std430, set = 0, binding = 1) writeonly buffer To { float to[]; };
layout(push_constant) uniform Launch { uint count; uint firstGroup; uint countY; uint countZ; uint faultRegion; };
void main() {
  uint i = gl_GlobalInvocationID.x + firstGroup * 256u;
  if (i < count) to[i] = from[i];
}
