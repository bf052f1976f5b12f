package dev.kiln.processor.model;

import dev.kiln.processor.diag.Diagnostics;
import dev.kiln.processor.diag.Errors;
import dev.kiln.processor.ir.PrimType;
import dev.kiln.processor.ir.PushConstantBlock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.SourceVersion;

/**
 * Collects the fuse groups of one class from its kernels' {@code @FuseGroup}s: arms ordered by
 * {@code order}, then declaration order (a kernel in a group twice runs twice), parameters unified
 * by name. Reports groups whose name cannot be a launcher method, and groups whose launch data
 * would not fit the push constants.
 */
public final class Groups {
  private Groups() {}

  private record Entry(KernelSignature kernel, int order, int position) {}

  public static List<GroupSignature> of(List<KernelSignature> kernels, Diagnostics diagnostics) {
    Map<String, List<Entry>> byName = new LinkedHashMap<>();
    int position = 0;
    for (KernelSignature kernel : kernels) {
      for (KernelSignature.Membership membership : kernel.groups()) {
        byName
            .computeIfAbsent(membership.group(), name -> new ArrayList<>())
            .add(new Entry(kernel, membership.order(), position++));
      }
    }
    Set<String> kernelNames =
        kernels.stream().map(KernelSignature::name).collect(Collectors.toSet());
    List<GroupSignature> groups = new ArrayList<>();
    byName.forEach(
        (name, entries) -> {
          entries.sort(Comparator.comparingInt(Entry::order).thenComparingInt(Entry::position));
          List<KernelSignature> arms = entries.stream().map(Entry::kernel).toList();
          if (!SourceVersion.isIdentifier(name) || SourceVersion.isKeyword(name)) {
            diagnostics.error(
                arms.getFirst().method(), Errors.groupName(name, "is not a Java identifier"));
            return;
          }
          if (kernelNames.contains(name)) {
            diagnostics.error(
                arms.getFirst().method(),
                Errors.groupName(name, "is also the name of a kernel of the class"));
            return;
          }
          GroupSignature group = unify(name, arms);
          List<PrimType> scalars =
              group.params().stream()
                  .filter(p -> !p.isBuffer())
                  .map(KernelSignature.Param::type)
                  .toList();
          int bytes = PushConstantBlock.size(arms.size(), scalars);
          if (bytes > PushConstantBlock.LIMIT) {
            diagnostics.error(
                arms.getFirst().method(),
                Errors.groupPushConstants(name, arms.size(), scalars.size(), bytes));
            return;
          }
          groups.add(group);
        });
    return groups;
  }

  private static GroupSignature unify(String name, List<KernelSignature> arms) {
    Map<String, KernelSignature.Param> params = new LinkedHashMap<>();
    Map<String, Integer> positions = new LinkedHashMap<>();
    List<int[]> armParams = new ArrayList<>();
    boolean consistent = true;
    for (KernelSignature arm : arms) {
      int[] indices = new int[arm.params().size()];
      for (int i = 0; i < indices.length; i++) {
        KernelSignature.Param param = arm.params().get(i);
        KernelSignature.Param earlier = params.putIfAbsent(param.name(), param);
        if (earlier != null) {
          consistent &= earlier.type() == param.type() && earlier.isBuffer() == param.isBuffer();
          if (earlier.isBuffer() && !earlier.declared().equals(param.declared())) {
            params.put(
                param.name(),
                new KernelSignature.Param(
                    param.name(), param.type(), true, java.util.Optional.empty()));
          }
        }
        indices[i] = positions.computeIfAbsent(param.name(), unused -> positions.size());
      }
      armParams.add(indices);
    }
    return new GroupSignature(name, arms, List.copyOf(params.values()), armParams, consistent);
  }
}
