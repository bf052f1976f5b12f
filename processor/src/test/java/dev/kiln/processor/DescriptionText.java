package dev.kiln.processor;

import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.LaunchForm;
import dev.kiln.abi.LaunchProof;
import dev.kiln.abi.SplitForm;
import java.util.ArrayList;
import java.util.List;

/** A kernel description as text, for the goldens and the tests that read one. */
public final class DescriptionText {
  private DescriptionText() {}

  /**
   * The description as lines of text, for golden files: one per fact, forms as {@link
   * LaunchForm#toString()} writes them, parameters by index.
   *
   * @param description the description
   * @return the lines
   */
  public static List<String> lines(KernelDescription description) {
    List<String> lines = new ArrayList<>();
    lines.add(
        "features: "
            + (description.features().isEmpty()
                ? "-"
                : String.join(" ", description.features().stream().map(Enum::name).toList())));
    lines.add(
        "elements per invocation "
            + description.elementsPerInvocation()
            + ", barriers "
            + (description.usesBarriers() ? "yes" : "no")
            + ", workgroup memory "
            + description.sharedBytes()
            + " bytes");
    lines.add(
        "accesses: " + String.join(" ", description.accesses().stream().map(Enum::name).toList()));
    description
        .bounds()
        .forEach(
            bound ->
                lines.add(
                    "bound: "
                        + String.join(
                            " × ", bound.factors().stream().map(LaunchForm::toString).toList())
                        + " ≤ "
                        + bound.limit()
                        + " | "
                        + bound.reason()));
    for (LaunchProof proof : description.proofs()) {
      List<String> sections = new ArrayList<>();
      for (List<LaunchForm> forms :
          List.of(proof.targets(), proof.facts(), proof.unequal(), proof.requires())) {
        sections.add(
            forms.isEmpty()
                ? "-"
                : String.join(" ", forms.stream().map(LaunchForm::toString).toList()));
      }
      lines.add("proof: " + String.join(" | ", sections) + " | " + proof.access());
    }
    description
        .aliasConflicts()
        .forEach(
            conflict -> lines.add("alias conflict: " + conflict.first() + " " + conflict.second()));
    lines.add(
        "split: "
            + (description.split().refusal() != null
                ? "refused " + description.split().refusal()
                : String.join(
                    ", ",
                    description.split().buffers().entrySet().stream()
                        .map(
                            buffer ->
                                buffer.getKey()
                                    + " "
                                    + buffer
                                        .getValue()
                                        .role()
                                        .name()
                                        .toLowerCase(java.util.Locale.ROOT)
                                    + (buffer.getValue().role() == SplitForm.Role.SLICED
                                        ? " " + buffer.getValue().stride()
                                        : ""))
                        .toList())));
    return lines;
  }
}
