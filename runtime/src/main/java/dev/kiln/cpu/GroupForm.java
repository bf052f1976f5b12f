package dev.kiln.cpu;

import dev.kiln.abi.KernelSpec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which of a fuse group's two CPU forms runs its launches: the fused twin's one loop, fastest where
 * C2 vectorizes every arm (the 4-arm chain: twice as fast as tiled), or {@link TiledArms}, never
 * slower than the arms launched one by one (an arm C2 cannot vectorize no longer holds the others
 * back). Neither wins everywhere, so a group times both and keeps the faster per invocation: its
 * first {@value #FUSED_FIRST} launches run fused, as before there was a choice (a program that
 * warms a group up once and times the next launch sees no form run cold); the next {@code 2 *
 * }{@value #TRIALS} alternate, the first {@value #WARMUP} of each form not counted (each form's
 * first run pays for its JIT compilation). {@code -Dkiln.cpu.groupForm=fused|tiled} fixes the form.
 */
final class GroupForm {
  private static final String FIXED = System.getProperty("kiln.cpu.groupForm", "");
  static final int FUSED_FIRST = 4;
  static final int TRIALS = 5;
  static final int WARMUP = 2;
  private static final Map<KernelSpec, GroupForm> FORMS = new ConcurrentHashMap<>();

  private int launches;
  private final double[] nanosPerInvocation = new double[2]; // fused, tiled
  private Boolean tiled;

  GroupForm() {}

  static GroupForm of(KernelSpec group) {
    return FORMS.computeIfAbsent(group, spec -> new GroupForm());
  }

  /** Whether the next launch runs tiled: the fixed form, the chosen one, or the next to time. */
  synchronized boolean tiledNext() {
    if (!FIXED.isEmpty()) {
      return FIXED.equals("tiled");
    }
    if (tiled != null) {
      return tiled;
    }
    return launches >= FUSED_FIRST && (launches - FUSED_FIRST) % 2 == 1;
  }

  /**
   * A launch that was to run tiled could not (its arms' workgroups differ): the group runs fused.
   */
  synchronized void untileable() {
    tiled = false;
  }

  /**
   * Records a launch's time while the forms are being timed; chooses once each has had its trials.
   */
  synchronized void record(boolean tiledForm, long nanos, long invocations) {
    if (tiled != null || !FIXED.isEmpty()) {
      return;
    }
    int trial = launches - FUSED_FIRST;
    if (trial / 2 >= WARMUP) {
      nanosPerInvocation[tiledForm ? 1 : 0] += (double) nanos / invocations;
    }
    launches++;
    if (trial + 1 == 2 * TRIALS) {
      tiled = nanosPerInvocation[1] < nanosPerInvocation[0];
    }
  }
}
