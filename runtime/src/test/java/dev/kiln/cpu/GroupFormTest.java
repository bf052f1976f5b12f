package dev.kiln.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The order in which a fuse group's CPU forms run, and the choice between them. */
class GroupFormTest {
  /**
   * Runs {@code launches} launches, each taking {@code fusedNanos} or {@code tiledNanos}; returns
   * the forms run.
   */
  private static List<String> launches(
      GroupForm form, int launches, long fusedNanos, long tiledNanos) {
    List<String> forms = new ArrayList<>();
    for (int k = 0; k < launches; k++) {
      boolean tiled = form.tiledNext();
      forms.add(tiled ? "T" : "F");
      form.record(tiled, tiled ? tiledNanos : fusedNanos, 1000);
    }
    return forms;
  }

  /**
   * A group's first launches run fused, so that one warmed up once and timed after runs no form
   * cold (the sample's develop took 139 ms instead of 4 when its second launch was a tiled trial).
   */
  @Test
  void theFirstLaunchesRunFusedThenTheFormsAlternateThenTheFasterStays() {
    String expected = "FFFF" + "FTFTFTFTFT";
    assertEquals(
        expected + "TTTT", String.join("", launches(new GroupForm(), expected.length() + 4, 9, 5)));
    assertEquals(
        expected + "FFFF", String.join("", launches(new GroupForm(), expected.length() + 4, 5, 9)));
  }

  /** Each form's first runs, which pay for their compilation, do not count. */
  @Test
  void theWarmUpRunsOfEachFormDoNotCount() {
    GroupForm form = new GroupForm();
    int warmUpEnd = GroupForm.FUSED_FIRST + 2 * GroupForm.WARMUP;
    for (int k = 0; k < GroupForm.FUSED_FIRST + 2 * GroupForm.TRIALS; k++) {
      boolean tiled = form.tiledNext();
      form.record(
          tiled,
          k < warmUpEnd && tiled ? 1_000_000 : tiled ? 5 : 9,
          1000); // a cold tiled form is slow
    }
    assertEquals(true, form.tiledNext());
  }

  @Test
  void aGroupThatCannotTileRunsFused() {
    GroupForm form = new GroupForm();
    launches(form, GroupForm.FUSED_FIRST + 1, 9, 5);
    form.untileable();
    assertEquals(List.of("F", "F", "F"), launches(form, 3, 9, 5));
  }
}
