package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.FuseGroup;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** Rodinia kmeans: invert_mapping (features to column-major) and kmeansPoint (the nearest cluster). */
final class Kmeans {
  static final double TOLERANCE = 0;
  static final int POINTS = 1003;
  static final int FEATURES = 7;
  static final int CLUSTERS = 5;

  // expect kmeans: fuses
  @Kernel(workgroup = 256)
  @FuseGroup("kmeans")
  static void invertMapping(float[] input, float[] output, int npoints, int nfeatures) {
    int pointId = Gpu.globalId(0);
    if (pointId < npoints) {
      for (int i = 0; i < nfeatures; i++) {
        output[pointId + npoints * i] = input[pointId * nfeatures + i];
      }
    }
  }

  static final int invertMappingGrid = POINTS;

  static Object[] invertMappingArgs(Random r) {
    return new Object[] {floats(r, POINTS * FEATURES), new float[POINTS * FEATURES], POINTS, FEATURES};
  }

  @Kernel(workgroup = 256)
  @FuseGroup("kmeans")
  static void kmeansPoint(float[] output, int nfeatures, int npoints, int nclusters, int[] membership,
      float[] clusters) {
    int pointId = Gpu.globalId(0);
    int index = -1;
    if (pointId < npoints) {
      float minDist = Float.MAX_VALUE;
      for (int i = 0; i < nclusters; i++) {
        int clusterBaseIndex = i * nfeatures;
        float ans = 0f;
        for (int l = 0; l < nfeatures; l++) {
          int addr = pointId + l * npoints;
          float diff = output[addr] - clusters[clusterBaseIndex + l];
          ans += diff * diff;
        }
        float dist = ans;
        if (dist < minDist) {
          minDist = dist;
          index = i;
        }
      }
      membership[pointId] = index;
    }
  }

  static final int kmeansPointGrid = POINTS;

  static Object[] kmeansPointArgs(Random r) {
    return new Object[] {floats(r, POINTS * FEATURES), FEATURES, POINTS, CLUSTERS, new int[POINTS],
        floats(r, CLUSTERS * FEATURES)};
  }

  static final int kmeansGroupGrid = POINTS;

  static Object[] kmeansGroupArgs(Random r) {
    return new Object[] {floats(r, POINTS * FEATURES), new float[POINTS * FEATURES], POINTS, FEATURES, CLUSTERS,
        new int[POINTS], floats(r, CLUSTERS * FEATURES)};
  }

  private static float[] floats(Random r, int n) {
    float[] values = new float[n];
    for (int i = 0; i < n; i++) {
      values[i] = r.nextFloat() * 10f;
    }
    return values;
  }
}
