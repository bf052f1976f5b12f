package heldout;

import dev.kiln.Gpu;
import dev.kiln.annotations.Kernel;
import java.util.Random;

/** Rodinia bfs: Kernel, one level of the breadth-first search over a CSR graph. */
final class Bfs {
  static final double TOLERANCE = 0;
  static final int NODES = 2000;
  static final int DEGREE = 4;

  @Kernel
  static void expand(int[] starting, int[] noOfEdges, int[] edges, boolean[] mask, boolean[] updatingMask,
      boolean[] visited, int[] cost, int noOfNodes) {
    int tid = Gpu.globalId(0);
    if (tid < noOfNodes && mask[tid]) {
      mask[tid] = false;
      for (int i = starting[tid]; i < (noOfEdges[tid] + starting[tid]); i++) {
        int id = edges[i];
        if (!visited[id]) {
          cost[id] = cost[tid] + 1;
          updatingMask[id] = true;
        }
      }
    }
  }

  static final int expandGrid = NODES;

  static Object[] expandArgs(Random r) {
    int[] starting = new int[NODES];
    int[] count = new int[NODES];
    int[] edges = new int[NODES * DEGREE];
    boolean[] mask = new boolean[NODES];
    boolean[] visited = new boolean[NODES];
    int[] cost = new int[NODES];
    for (int i = 0; i < NODES; i++) {
      starting[i] = i * DEGREE;
      count[i] = 1 + r.nextInt(DEGREE);
      mask[i] = r.nextInt(8) == 0; // the frontier: level 3, every node of it
      visited[i] = mask[i] || r.nextInt(3) == 0;
      cost[i] = mask[i] ? 3 : visited[i] ? 2 : -1;
    }
    for (int e = 0; e < edges.length; e++) {
      edges[e] = r.nextInt(NODES);
    }
    return new Object[] {starting, count, edges, mask, new boolean[NODES], visited, cost, NODES};
  }
}
