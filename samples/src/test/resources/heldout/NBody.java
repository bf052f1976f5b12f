package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** Aparapi's NBody example: each body's acceleration from all others, then its move (xyz interleaved). */
final class NBody {
  static final double TOLERANCE = 1e-3;
  static final int BODIES = 500;

  @Kernel(workgroup = 64)
  static void step(float[] xyz, float[] vxyz, int bodies, float delT, float espSqr, float mass) {
    int count = bodies * 3;
    int globalId = Gpu.globalId(0) * 3;
    if (globalId >= count) {
      return;
    }
    float accx = 0.f;
    float accy = 0.f;
    float accz = 0.f;
    float myPosx = xyz[globalId + 0];
    float myPosy = xyz[globalId + 1];
    float myPosz = xyz[globalId + 2];
    for (int i = 0; i < count; i += 3) {
      float dx = xyz[i + 0] - myPosx;
      float dy = xyz[i + 1] - myPosy;
      float dz = xyz[i + 2] - myPosz;
      float invDist = Gpu.inverseSqrt((dx * dx) + (dy * dy) + (dz * dz) + espSqr);
      float s = mass * invDist * invDist * invDist;
      accx = accx + (s * dx);
      accy = accy + (s * dy);
      accz = accz + (s * dz);
    }
    accx = accx * delT;
    accy = accy * delT;
    accz = accz * delT;
    vxyz[globalId + 0] = vxyz[globalId + 0] + accx;
    vxyz[globalId + 1] = vxyz[globalId + 1] + accy;
    vxyz[globalId + 2] = vxyz[globalId + 2] + accz;
  }

  static final int stepGrid = BODIES;

  static Object[] stepArgs(Random r) {
    float[] xyz = new float[3 * BODIES];
    for (int i = 0; i < xyz.length; i++) {
      xyz[i] = r.nextFloat() * 100f;
    }
    return new Object[] {xyz, new float[3 * BODIES], BODIES, 0.005f, 1000f, 5f};
  }
}
