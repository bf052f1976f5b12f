package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** SHOC MD: the Lennard-Jones force on each atom from its neighbour list (column-major, as SHOC lays it out). */
final class MolecularDynamics {
  static final double TOLERANCE = 0;
  static final int ATOMS = 1500;
  static final int NEIGHBORS = 12;

  @Kernel(workgroup = 128)
  static void computeLjForce(float[] force, float[] position, int neighCount, int[] neighList, float cutsq,
      float lj1, float lj2, int inum) {
    int idx = Gpu.globalId(0);
    if (idx >= inum) {
      return;
    }
    float ipx = position[3 * idx];
    float ipy = position[3 * idx + 1];
    float ipz = position[3 * idx + 2];
    float fx = 0.0f;
    float fy = 0.0f;
    float fz = 0.0f;
    int j = 0;
    while (j < neighCount) {
      int jidx = neighList[j * inum + idx];
      float delx = ipx - position[3 * jidx];
      float dely = ipy - position[3 * jidx + 1];
      float delz = ipz - position[3 * jidx + 2];
      float r2inv = delx * delx + dely * dely + delz * delz;
      if (r2inv < cutsq) {
        r2inv = 1.0f / r2inv;
        float r6inv = r2inv * r2inv * r2inv;
        float forceC = r2inv * r6inv * (lj1 * r6inv - lj2);
        fx += delx * forceC;
        fy += dely * forceC;
        fz += delz * forceC;
      }
      j++;
    }
    force[3 * idx] = fx;
    force[3 * idx + 1] = fy;
    force[3 * idx + 2] = fz;
  }

  static final int computeLjForceGrid = ATOMS;

  static Object[] computeLjForceArgs(Random r) {
    float[] position = new float[3 * ATOMS];
    for (int i = 0; i < position.length; i++) {
      position[i] = r.nextFloat() * 20f;
    }
    int[] neighbors = new int[NEIGHBORS * ATOMS];
    for (int i = 0; i < neighbors.length; i++) {
      int atom = i % ATOMS;
      neighbors[i] = (atom + 1 + r.nextInt(ATOMS - 1)) % ATOMS;
    }
    return new Object[] {new float[3 * ATOMS], position, NEIGHBORS, neighbors, 16f, 1.5f, 2f, ATOMS};
  }
}
