package dev.kiln.cpu;

import dev.kiln.abi.NumericType;
import java.util.ArrayList;
import java.util.List;

/**
 * What the invocations of one workgroup share: its shared arrays, its subgroups' exchanges and,
 * when they run side by side, a barrier.
 */
final class Workgroup {
  private final List<Object> arrays = new ArrayList<>();
  private final WorkgroupBarrier barrier;
  private final int subgroupSize;
  private final int invocations;
  private final SubgroupExchange[] exchanges;

  /**
   * @param barrier the barrier of invocations running side by side, or null when they run one by
   *     one
   * @param subgroupSize the lanes of a subgroup (1 where the invocations run one by one)
   * @param invocations the workgroup's invocations
   */
  Workgroup(WorkgroupBarrier barrier, int subgroupSize, int invocations) {
    this.barrier = barrier;
    this.subgroupSize = subgroupSize;
    this.invocations = invocations;
    this.exchanges = new SubgroupExchange[Math.ceilDiv(invocations, subgroupSize)];
    if (barrier
        != null) { // side by side: every lane that ends or waits at the barrier must be known to
      // its exchange
      for (int subgroup = 0; subgroup < exchanges.length; subgroup++) {
        exchange(subgroup);
      }
      barrier.onOpen(
          () -> {
            for (SubgroupExchange exchange : exchanges) {
              exchange.barrierPassed();
            }
          });
    }
  }

  int subgroupSize() {
    return subgroupSize;
  }

  /**
   * The exchange of subgroup {@code subgroup}; made on first use where the invocations run one by
   * one (one lane each).
   */
  synchronized SubgroupExchange exchange(int subgroup) {
    if (exchanges[subgroup] == null) {
      exchanges[subgroup] =
          new SubgroupExchange(Math.min(subgroupSize, invocations - subgroup * subgroupSize));
    }
    return exchanges[subgroup];
  }

  synchronized Object shared(int declaration, NumericType type, int length) {
    if (declaration == arrays.size()) {
      arrays.add(type.newArray(length));
    }
    return arrays.get(declaration);
  }

  void barrier() {
    if (barrier == null) {
      throw new IllegalStateException("Gpu.barrier() in a kernel whose module declares no barrier");
    }
    barrier.await();
  }
}
