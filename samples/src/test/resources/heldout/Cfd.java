package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** Rodinia cfd: cuda_compute_step_factor, the time step of each element from its flow variables. */
final class Cfd {
  static final double TOLERANCE = 1e-5;
  static final int NELR = 3000;
  static final float GAMMA = 1.4f;

  @Kernel(workgroup = 192)
  static void computeStepFactor(int nelr, float[] variables, float[] areas, float[] stepFactors) {
    int i = Gpu.globalId(0);
    if (i >= nelr) {
      return;
    }
    float density = variables[i];
    float mx = variables[i + nelr];
    float my = variables[i + 2 * nelr];
    float mz = variables[i + 3 * nelr];
    float energy = variables[i + 4 * nelr];
    float vx = mx / density;
    float vy = my / density;
    float vz = mz / density;
    float speedSqd = vx * vx + vy * vy + vz * vz;
    float pressure = (GAMMA - 1.0f) * (energy - 0.5f * density * speedSqd);
    float speedOfSound = (float) Math.sqrt(GAMMA * pressure / density);
    stepFactors[i] = 0.5f / ((float) Math.sqrt(areas[i]) * ((float) Math.sqrt(speedSqd) + speedOfSound));
  }

  static final int computeStepFactorGrid = NELR;

  static Object[] computeStepFactorArgs(Random r) {
    float[] variables = new float[5 * NELR];
    float[] areas = new float[NELR];
    for (int i = 0; i < NELR; i++) {
      variables[i] = 1f + r.nextFloat();
      variables[i + NELR] = r.nextFloat();
      variables[i + 2 * NELR] = r.nextFloat();
      variables[i + 3 * NELR] = r.nextFloat();
      variables[i + 4 * NELR] = 3f + r.nextFloat();
      areas[i] = 0.1f + r.nextFloat();
    }
    return new Object[] {NELR, variables, areas, new float[NELR]};
  }
}
