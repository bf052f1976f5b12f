package dev.kiln;

import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.LaunchForm;
import dev.kiln.abi.LaunchValues;
import dev.kiln.abi.SplitForm;
import dev.kiln.annotations.Access;
import dev.kiln.backend.KernelDescriptions;
import dev.kiln.backend.Launch;
import java.util.ArrayList;
import java.util.List;

/**
 * A launch on {@link ShardedArray}s across a {@link DeviceSet}: each device runs the ids of its
 * shards on the arrays it holds. The kernel's split form ({@link SplitForm}) says what each buffer
 * needs: a sliced buffer only its shard; a buffer read at {@code Gpu.globalId(0) + d} its shard and
 * the elements {@code d} away, which its halo must hold, brought up to date first where a launch
 * wrote the array since; a buffer read anywhere, a replicated array. What the layout cannot serve
 * is refused before anything runs, with the fix.
 */
final class ShardedLaunch {
  private ShardedLaunch() {}

  /** Runs {@code spec} for {@code count} ids along x on sharded arrays {@code args}. */
  static void run(DeviceSet set, KernelSpec spec, int count, Object[] args) {
    set.checkOpen();
    Launch.checkCountFits(spec);
    if (count < 0) {
      throw new IllegalArgumentException(spec + ": count must not be negative: " + count);
    }
    checkArguments(set, spec, args);
    DeviceSet.Plan plan = DeviceSet.planOf(spec);
    DeviceSet.checkAliases(spec, plan.form(), args);
    LaunchPath.checkAliases(spec, args);
    List<ShardedArray<?>> written = checkRoles(spec, plan, args);
    int[] ids = idBounds(spec, plan, args, count);
    List<ShardedArray<?>> halosRead = new ArrayList<>();
    for (int param = 0; param < args.length; param++) {
      if (args[param] instanceof ShardedArray<?> array && !array.isReplicated()) {
        SplitForm.Share share = DeviceSet.share(spec, plan.form(), param);
        if (share.role() == SplitForm.Role.SLICED) {
          checkSliced(spec, param, array, share.stride(), ids);
        } else if (checkReach(spec, param, array, share.reach(), ids, args)) {
          halosRead.add(array);
        }
      }
    }
    halosRead.forEach(ShardedArray::exchangeHalos);
    List<DeviceSet.Piece> pieces = new ArrayList<>();
    for (int d = 0; d < set.devices().size(); d++) {
      if (ids[d + 1] > ids[d]) {
        Launch launch = new Launch().start(spec);
        for (int arm = 0; arm < spec.gridCount(); arm++) {
          launch.grid(arm, count, 1, 1);
        }
        launch.part(ids[d], ids[d + 1]);
        pieces.add(new DeviceSet.Piece(d, set.devices().get(d), launch, ids[d], ids[d + 1]));
      }
    }
    try {
      set.runPieces(pieces, piece -> onDevice(piece, args));
    } finally {
      written.forEach(ShardedArray::markWritten); // a part may have written before a fault
    }
  }

  /**
   * Refuses a replicated array the kernel may write and a sharded one it reads anywhere; the arrays
   * it may write.
   */
  private static List<ShardedArray<?>> checkRoles(
      KernelSpec spec, DeviceSet.Plan plan, Object[] args) {
    KernelDescription kernel = KernelDescriptions.of(spec);
    List<ShardedArray<?>> written = new ArrayList<>();
    for (int param = 0; param < args.length; param++) {
      if (!(args[param] instanceof ShardedArray<?> array)) {
        continue;
      }
      SplitForm.Share share = DeviceSet.share(spec, plan.form(), param);
      if (share.role() == SplitForm.Role.SLICED && kernel.access(param) != Access.READ) {
        if (array.isReplicated()) {
          throw refusal(
              spec,
              param,
              "is replicated, and the kernel may write it; every device would write its own copy",
              "pass an array sharded by ShardedArray.upload or zeros");
        }
        written.add(array);
      } else if (share.role() == SplitForm.Role.WHOLE
          && share.reach().isEmpty()
          && !array.isReplicated()) {
        throw refusal(
            spec,
            param,
            "is read anywhere (not only at Gpu.globalId(0) + d), so every device needs all of it",
            "pass a replicated array (ShardedArray.replicate)");
      }
    }
    return written;
  }

  /** Runs a piece on its device's parts of the arrays; its nanoseconds. */
  private static long onDevice(DeviceSet.Piece piece, Object[] args) {
    Object[] parts = args.clone();
    for (int param = 0; param < parts.length; param++) {
      if (parts[param] instanceof ShardedArray<?> array) {
        parts[param] = array.part(piece.index());
      }
    }
    long start = System.nanoTime();
    piece.device().launches.onDevice(piece.launch(), parts);
    return System.nanoTime() - start;
  }

  /**
   * Checks that every buffer argument is an open sharded array of this set and of the parameter's
   * type.
   */
  private static void checkArguments(DeviceSet set, KernelSpec spec, Object[] args) {
    if (args.length != spec.params().size()) {
      throw new IllegalArgumentException(
          spec + " takes " + spec.params().size() + " arguments, got " + args.length);
    }
    for (int param = 0; param < args.length; param++) {
      KernelSpec.Param declared = spec.params().get(param);
      if (!declared.isBuffer()) {
        continue;
      }
      if (!(args[param] instanceof ShardedArray<?> array)) {
        throw new IllegalArgumentException(
            spec
                + ": argument '"
                + declared.name()
                + "' must be a sharded array, got "
                + (args[param] == null ? "null" : args[param].getClass().getSimpleName()));
      }
      if (array.type() != declared.type()) {
        throw refusal(
            spec,
            param,
            "holds " + array.type() + " elements, not " + declared.type(),
            "pass an array of the parameter's element type");
      }
      if (!array.devices().devices().equals(set.devices())) {
        throw refusal(
            spec,
            param,
            "lives on " + array.devices().devices() + ", and this launch runs on " + set.devices(),
            "make the arrays of a launch on the set it runs on (copyTo(DeviceSet, block) moves one)");
      }
      array.part(0); // refuses a closed array
    }
  }

  /**
   * Each device's first id, and the count at the end: the shards of the first sliced array that is
   * not replicated, over its stride (else of the first array read near the ids); each must start at
   * a whole workgroup.
   */
  private static int[] idBounds(KernelSpec spec, DeviceSet.Plan plan, Object[] args, int count) {
    int leader = -1;
    int stride = 1;
    for (int param = 0; param < args.length; param++) {
      if (args[param] instanceof ShardedArray<?> array && !array.isReplicated()) {
        SplitForm.Share share = DeviceSet.share(spec, plan.form(), param);
        if (share.role() == SplitForm.Role.SLICED) {
          leader = param;
          stride = share.stride();
          break;
        }
        if (leader < 0) {
          leader = param;
        }
      }
    }
    if (leader < 0) {
      throw new IllegalArgumentException(
          spec
              + ": every array of this launch is replicated, so nothing says which device runs"
              + " which ids. Fix: shard the array the kernel writes (ShardedArray.upload or zeros),"
              + " or run on one device");
    }
    ShardedArray<?> array = (ShardedArray<?>) args[leader];
    int devices = array.devices().devices().size();
    int[] ids = new int[devices + 1];
    for (int d = 1; d < devices; d++) {
      int first = array.first(d);
      if (first % stride != 0 || first / stride % plan.unit() != 0) {
        throw refusal(
            spec,
            leader,
            "has a shard starting at element "
                + first
                + ", and a device's ids must start at a whole workgroup: a multiple of "
                + plan.unit()
                + " ids, "
                + (long) plan.unit() * stride
                + " elements",
            "shard it in blocks of a multiple of " + (long) plan.unit() * stride + " elements");
      }
      ids[d] = Math.min(count, first / stride);
    }
    ids[devices] = count;
    return ids;
  }

  /** Checks that a sliced array's shards are the ids' blocks. */
  private static void checkSliced(
      KernelSpec spec, int param, ShardedArray<?> array, int stride, int[] ids) {
    for (int d = 1; d < ids.length - 1; d++) {
      long expected = (long) ids[d] * stride;
      if (ids[d] < ids[ids.length - 1] && array.first(d) != expected) {
        throw refusal(
            spec,
            param,
            "has device "
                + d
                + "'s shard start at element "
                + array.first(d)
                + ", where that device's ids "
                + ids[d]
                + ".. need element "
                + expected
                + " (each id owns "
                + stride
                + (stride == 1 ? " element" : " elements")
                + ")",
            "shard the arrays of one launch alike: the same length per id and the same block");
      }
    }
  }

  /**
   * Checks that each device's halo of an array read at {@code Gpu.globalId(0) + d} holds what its
   * ids read; whether any {@code d} reads beyond the ids' own elements.
   */
  private static boolean checkReach(
      KernelSpec spec,
      int param,
      ShardedArray<?> array,
      List<LaunchForm> reach,
      int[] ids,
      Object[] args) {
    LaunchValues values = values(args);
    long least = Long.MAX_VALUE;
    long most = Long.MIN_VALUE;
    for (LaunchForm offset : reach) {
      long d = offset.value(values);
      if (d == LaunchValues.UNKNOWN) {
        throw refusal(
            spec,
            param,
            "is read at Gpu.globalId(0) + "
                + offset.text(i -> spec.params().get(i).name())
                + ", which this launch cannot evaluate",
            "pass a replicated array (ShardedArray.replicate)");
      }
      least = Math.min(least, d);
      most = Math.max(most, d);
    }
    for (int d = 0; d < ids.length - 1; d++) {
      if (ids[d + 1] <= ids[d]) {
        continue;
      }
      long from = Math.max(0, ids[d] + least);
      long to = Math.min(array.length(), ids[d + 1] - 1L + most + 1);
      if (from < to && (from < array.windowFirst(d) || to > array.windowEnd(d))) {
        throw refusal(
            spec,
            param,
            "is read at Gpu.globalId(0) + d for d from "
                + least
                + " to "
                + most
                + " in this launch, so device "
                + d
                + " ("
                + array.devices().devices().get(d)
                + ", ids "
                + ids[d]
                + " to "
                + (ids[d + 1] - 1)
                + ") reads elements "
                + from
                + " to "
                + (to - 1)
                + ", beyond its shard and halo of "
                + array.halo()
                + " ("
                + array.windowFirst(d)
                + " to "
                + (array.windowEnd(d) - 1)
                + ")",
            "shard it with a halo of at least " + Math.max(-least, most) + " elements");
      }
    }
    return least < 0 || most > 0;
  }

  /** What the reach's forms read of a launch: int scalars and the arrays' lengths. */
  private static LaunchValues values(Object[] args) {
    return new LaunchValues() {
      @Override
      public long scalar(int param) {
        return args[param] instanceof Integer value ? value : UNKNOWN;
      }

      @Override
      public long length(int param) {
        return args[param] instanceof ShardedArray<?> array ? array.length() : UNKNOWN;
      }

      @Override
      public long grid(int arm, int axis) {
        return UNKNOWN;
      }

      @Override
      public long roundedGrid(int arm, int axis) {
        return UNKNOWN;
      }

      @Override
      public long dispatchedIds(int axis) {
        return UNKNOWN;
      }

      @Override
      public long workgroupSize(int axis) {
        return UNKNOWN;
      }
    };
  }

  private static IllegalArgumentException refusal(
      KernelSpec spec, int param, String what, String fix) {
    return new IllegalArgumentException(
        spec + ": argument '" + spec.params().get(param).name() + "' " + what + ". Fix: " + fix);
  }
}
