package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** Rodinia nn: euclid, the distance of each record's (lat, lng) to a point. */
final class NearestNeighbor {
  static final double TOLERANCE = 1e-6;
  static final int RECORDS = 4001;

  @Kernel
  static void euclid(float[] locations, float[] distances, int numRecords, float lat, float lng) {
    int globalId = Gpu.globalId(0);
    if (globalId < numRecords) {
      float dlat = lat - locations[2 * globalId];
      float dlng = lng - locations[2 * globalId + 1];
      distances[globalId] = (float) Math.sqrt(dlat * dlat + dlng * dlng);
    }
  }

  static final int euclidGrid = RECORDS;

  static Object[] euclidArgs(Random r) {
    float[] locations = new float[2 * RECORDS];
    for (int i = 0; i < locations.length; i++) {
      locations[i] = r.nextFloat() * 180f - 90f;
    }
    return new Object[] {locations, new float[RECORDS], RECORDS, 30f, 90f};
  }
}
