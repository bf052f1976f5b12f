package dev.kiln.processor.check;

import dev.kiln.processor.ir.Local;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where {@link MissingBarriers}' walk is: per barrier interval a path may be in, the accesses (by
 * their order) a path reaching here made in it since it began, each with the locals a path assigned
 * since it; empty where no path gets (after a return or a jump).
 */
record IntervalState(Map<Integer, Map<Integer, Set<Local>>> intervals) {
  static final IntervalState DEAD = new IntervalState(Map.of());

  static IntervalState start(int interval) {
    return new IntervalState(Map.of(interval, Map.of()));
  }

  IntervalState merge(IntervalState other) {
    Map<Integer, Map<Integer, Set<Local>>> both = new TreeMap<>();
    for (IntervalState state : List.of(this, other)) {
      state.intervals.forEach(
          (interval, made) -> {
            Map<Integer, Set<Local>> into = both.computeIfAbsent(interval, i -> new TreeMap<>());
            made.forEach(
                (access, since) -> into.merge(access, since, (a, b) -> union(a, List.of(b))));
          });
    }
    return new IntervalState(frozen(both));
  }

  /** The state after {@code access}, made on every path here. */
  IntervalState with(int access) {
    Map<Integer, Map<Integer, Set<Local>>> all = new TreeMap<>();
    intervals.forEach(
        (interval, made) -> {
          Map<Integer, Set<Local>> more = new TreeMap<>(made);
          more.put(access, Set.of());
          all.put(interval, more);
        });
    return new IntervalState(frozen(all));
  }

  /** The state after {@code local} is assigned: it may differ at each access before. */
  IntervalState assigning(Local local) {
    Map<Integer, Map<Integer, Set<Local>>> all = new TreeMap<>();
    intervals.forEach(
        (interval, made) -> {
          Map<Integer, Set<Local>> more = new TreeMap<>();
          made.forEach((access, since) -> more.put(access, union(since, List.of(Set.of(local)))));
          all.put(interval, more);
        });
    return new IntervalState(frozen(all));
  }

  /** The accesses made in {@code interval} here and not at {@code before}. */
  Set<Integer> since(IntervalState before, int interval) {
    Set<Integer> made = new TreeSet<>(intervals.getOrDefault(interval, Map.of()).keySet());
    made.removeAll(before.intervals.getOrDefault(interval, Map.of()).keySet());
    return made;
  }

  private static Set<Local> union(Set<Local> first, List<Set<Local>> more) {
    if (more.stream().allMatch(first::containsAll)) {
      return first;
    }
    Set<Local> all = new HashSet<>(first);
    more.forEach(all::addAll);
    return Set.copyOf(all);
  }

  private static Map<Integer, Map<Integer, Set<Local>>> frozen(
      Map<Integer, Map<Integer, Set<Local>>> intervals) {
    Map<Integer, Map<Integer, Set<Local>>> copy = new TreeMap<>();
    intervals.forEach((interval, made) -> copy.put(interval, Map.copyOf(made)));
    return Map.copyOf(copy);
  }
}
