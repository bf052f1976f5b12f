package dev.kiln.cpu;

import dev.kiln.internal.KernelSpec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which of a fuse group's two CPU forms runs its launches: the fused twin's one loop, fastest where
 * C2 vectorizes every arm (the 4-arm chain: twice as fast as tiled), or {@link TiledArms}, never
 * slower than the arms launched one by one (an arm C2 cannot vectorize no longer holds the others
 * back). Neither wins everywhere, so each group times both on its first launches, alternating, and
 * keeps the faster per invocation. {@code -Dkiln.cpu.groupForm=fused|tiled} fixes the form.
 */
final class GroupForm {
  private static final String FIXED = System.getProperty("kiln.cpu.groupForm", "");
  /** Timed launches of each form; the first {@link #WARMUP} of each are not counted. */
  private static final int TRIALS = 5;
  private static final int WARMUP = 2;
  private static final Map<KernelSpec, GroupForm> FORMS = new ConcurrentHashMap<>();

  private int launches;
  private final double[] nanosPerInvocation = new double[2]; // fused, tiled
  private Boolean tiled;

  private GroupForm() {}

  static GroupForm of(KernelSpec group) {
    return FORMS.computeIfAbsent(group, spec -> new GroupForm());
  }

  /** Whether this launch runs tiled: the fixed form, the chosen one, or the next to time. */
  synchronized boolean tiledNext() {
    if (!FIXED.isEmpty()) {
      return FIXED.equals("tiled");
    }
    return tiled != null ? tiled : launches % 2 == 1;
  }

  /** Records a launch's time while the forms are being timed; chooses once each has had its trials. */
  synchronized void record(boolean tiledForm, long nanos, long invocations) {
    if (tiled != null || !FIXED.isEmpty()) {
      return;
    }
    if (launches / 2 >= WARMUP) {
      nanosPerInvocation[tiledForm ? 1 : 0] += (double) nanos / invocations;
    }
    launches++;
    if (launches == 2 * TRIALS) {
      tiled = nanosPerInvocation[1] < nanosPerInvocation[0];
    }
  }
}
