package dev.kiln;

import dev.kiln.abi.KernelDescription;
import dev.kiln.abi.KernelSpec;
import dev.kiln.abi.SplitForm;
import dev.kiln.annotations.Access;
import dev.kiln.backend.KernelDescriptions;
import dev.kiln.backend.Launch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import java.util.function.ToLongFunction;

/**
 * Devices that run one launch together: a launcher's method that takes a {@code DeviceSet} splits a
 * one-dimensional launch on Java arrays along x, gives each device a range of ids in whole
 * workgroups, runs the ranges at once (each device's on a thread of its own, as one submission of
 * copies in, dispatch and copies back) and gathers what they wrote into the Java arrays. The result
 * is bit for bit what one device's launch gives (Java semantics on every backend; a device that
 * flushes subnormals differs as it would alone).
 *
 * <p>What may split is the processor's proof ({@link SplitForm}): a buffer accessed only at {@code
 * Gpu.globalId(0)}, or only in its block {@code s * Gpu.globalId(0) + c} ({@code 0 ≤ c < s}), moves
 * only its device's range, in and back; a buffer the kernel only reads goes whole to every device;
 * a kernel that writes other elements (a histogram's bins, a transpose) is refused with the access
 * that prevents it. Each device holds every buffer at full length.
 *
 * <p>The ranges follow each device's speed: the first launch of a kernel splits evenly, and each
 * later one in proportion to the ids per second each device's part ran at before (its copies
 * included), so that a GPU and the CPU backend together end at about the same time; {@link
 * #withShares} fixes the proportions instead. A fault on a device is thrown as the one-device
 * launch throws it, naming the device and its range. The set does not own its devices: closing it
 * stops its threads, and the devices stay open.
 *
 * <p>Data that stays on the devices across launches lives in {@link ShardedArray}s of a set: the
 * launchers' methods that take sharded arrays run each device's shards where they are, with no
 * copies but the halos.
 */
public final class DeviceSet implements AutoCloseable {
  /** Each kernel's split form, and the multiple of ids that each part's range starts on. */
  private static final Map<KernelSpec, Plan> PLANS = new ConcurrentHashMap<>();

  private final List<Device> devices;
  private final SplitBalance balance;
  private ExecutorService threads;
  private volatile boolean closed;
  private volatile List<Part> lastSplit = List.of();

  /**
   * One device's part of a split launch.
   *
   * @param device the device
   * @param first its first global id along x
   * @param end the id after its last
   * @param nanos how long its part took, copies included
   */
  public record Part(Device device, int first, int end, long nanos) {}

  /**
   * What the runtime knows of a kernel for splitting it: its form, and the multiple of ids each
   * part's range starts on (whole workgroups, and whole 4-byte words of narrow elements).
   */
  record Plan(SplitForm form, int unit) {}

  /**
   * A part about to run: device number {@code index} of the set runs {@code launch}, ids {@code
   * first .. end-1}.
   */
  record Piece(int index, Device device, Launch launch, int first, int end) {}

  private DeviceSet(List<Device> devices, double[] shares) {
    if (devices.isEmpty()) {
      throw new IllegalArgumentException("a device set needs at least one device");
    }
    this.devices = List.copyOf(devices);
    this.balance = new SplitBalance(devices.size(), shares);
  }

  /**
   * The devices {@code devices}, whose launches split by their measured speeds. A device may be
   * named twice: its parts then run side by side on it.
   *
   * @param devices the devices, at least one
   * @return the set
   */
  public static DeviceSet of(List<Device> devices) {
    return new DeviceSet(devices, null);
  }

  /**
   * The devices {@code devices}, as {@link #of(List)}.
   *
   * @param devices the devices, at least one
   * @return the set
   */
  public static DeviceSet of(Device... devices) {
    return of(List.of(devices));
  }

  /**
   * These devices, splitting every launch in the proportions {@code shares} (one per device, none
   * negative, not all 0) instead of by measured speed.
   *
   * @param shares each device's proportion of the ids
   * @return a new set
   */
  public DeviceSet withShares(double... shares) {
    if (shares.length != devices.size()) {
      throw new IllegalArgumentException(
          devices.size() + " devices take " + devices.size() + " shares, got " + shares.length);
    }
    if (Arrays.stream(shares).anyMatch(share -> !(share >= 0))
        || Arrays.stream(shares).sum() <= 0) {
      throw new IllegalArgumentException(
          "shares must be at least 0 and not all 0: " + Arrays.toString(shares));
    }
    return new DeviceSet(devices, shares.clone());
  }

  /**
   * The devices, in the order their ranges follow along x.
   *
   * @return the devices
   */
  public List<Device> devices() {
    return devices;
  }

  /**
   * The parts of the last launch this set completed, in id order: who ran what, and how long it
   * took; empty before the first.
   *
   * @return the parts
   */
  public List<Part> lastSplit() {
    return lastSplit;
  }

  /**
   * Runs {@code spec} for {@code count} ids along x on Java arrays {@code args}, split across the
   * devices.
   */
  void run(KernelSpec spec, int count, Object[] args) {
    checkOpen();
    Launch.checkCountFits(spec);
    LaunchPath.checkArguments(spec, args);
    for (int param = 0; param < args.length; param++) {
      if (spec.params().get(param).isBuffer() && args[param] instanceof DeviceArray<?, ?>) {
        throw new IllegalArgumentException(
            spec
                + ": argument '"
                + spec.params().get(param).name()
                + "' must be a Java"
                + " array: a split launch copies each device's part to it");
      }
    }
    Plan plan = planOf(spec);
    checkAliases(spec, plan.form(), args); // in a split's words where splitting makes the conflict
    LaunchPath.checkAliases(spec, args);
    int[] bounds = balance.bounds(spec, count, plan.unit());
    List<Piece> pieces = new ArrayList<>();
    for (int d = 0; d < devices.size(); d++) {
      if (bounds[d + 1] > bounds[d]) {
        pieces.add(
            new Piece(
                d,
                devices.get(d),
                part(spec, plan.form(), count, bounds[d], bounds[d + 1], args),
                bounds[d],
                bounds[d + 1]));
      }
    }
    if (pieces.isEmpty()) {
      return; // nothing to run: as one device's launch of 0 ids
    }
    long[] nanos = runPieces(pieces, piece -> timed(piece, args));
    int[] ran = new int[pieces.size()];
    int[] ids = new int[pieces.size()];
    for (int k = 0; k < pieces.size(); k++) {
      ran[k] = pieces.get(k).index();
      ids[k] = pieces.get(k).end() - pieces.get(k).first();
    }
    balance.learn(spec, ran, ids, nanos);
  }

  /** Refuses a launch on a closed set. */
  void checkOpen() {
    if (closed) {
      throw new IllegalStateException("this device set is closed");
    }
  }

  /**
   * How {@code spec} splits, refused with the processor's reason where it cannot.
   *
   * @throws IllegalArgumentException where the kernel cannot split
   */
  static Plan planOf(KernelSpec spec) {
    Plan plan = PLANS.computeIfAbsent(spec, DeviceSet::plan);
    if (plan.form().refusal() != null) {
      throw new IllegalArgumentException(
          spec
              + " cannot run split across devices: "
              + plan.form().refusal()
              + ". Fix: run it on one device (its launcher's method that takes a Device)");
    }
    return plan;
  }

  /**
   * Runs the pieces ({@code run} runs one and returns its nanoseconds), several side by side, each
   * fault named by its device and range; records them as the {@link #lastSplit}.
   *
   * @return each piece's nanoseconds
   */
  long[] runPieces(List<Piece> pieces, ToLongFunction<Piece> run) {
    long[] nanos = new long[pieces.size()];
    if (pieces.size() == 1) {
      try {
        nanos[0] = run.applyAsLong(pieces.getFirst());
      } catch (RuntimeException e) {
        throw named(e, pieces.getFirst());
      }
    } else {
      runSideBySide(pieces, run, nanos);
    }
    List<Part> parts = new ArrayList<>();
    for (int k = 0; k < pieces.size(); k++) {
      Piece piece = pieces.get(k);
      parts.add(new Part(piece.device(), piece.first(), piece.end(), nanos[k]));
    }
    lastSplit = List.copyOf(parts);
    return nanos;
  }

  /**
   * Runs {@code work} for each device of the set, by its number, each on a thread of its own, and
   * waits for all: for a routine that launches on the parts of sharded arrays itself ({@link
   * ShardedArray#part}). Throws the first device's failure, the others' suppressed in it.
   *
   * @param work what a device does, given its number in the set
   */
  public void forEachDevice(IntConsumer work) {
    checkOpen();
    List<Runnable> tasks = new ArrayList<>();
    for (int d = 0; d < devices.size(); d++) {
      int device = d;
      tasks.add(() -> work.accept(device));
    }
    sideBySide(tasks);
  }

  /** Runs the tasks at once, each on a thread of its own, and throws the first one's failure. */
  static void sideBySide(List<Runnable> tasks) {
    List<CompletableFuture<Void>> running = new ArrayList<>();
    for (Runnable task : tasks) {
      running.add(
          CompletableFuture.runAsync(
              task, work -> Thread.ofVirtual().name("kiln-shard").start(work)));
    }
    RuntimeException failure = null;
    for (CompletableFuture<Void> task : running) {
      try {
        task.join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        RuntimeException thrown = e.getCause() instanceof RuntimeException runtime ? runtime : e;
        if (failure == null) {
          failure = thrown;
        } else {
          failure.addSuppressed(thrown);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static Plan plan(KernelSpec spec) {
    KernelDescription kernel =
        KernelDescriptions.of(spec); // declared, for one not compiled: refused with why
    int groupIds = spec.workgroup(0) * kernel.elementsPerInvocation();
    // a part starts at a workgroup's first id on every backend, and at a 4-byte word of narrow
    // elements
    return new Plan(kernel.split(), groupIds * 4 / gcd(groupIds, 4));
  }

  private static int gcd(int a, int b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  /**
   * Refuses an array passed for a buffer that every device gets whole and for one that a device
   * writes part of: a device's part of the second would change what another device reads of the
   * first.
   */
  static void checkAliases(KernelSpec spec, SplitForm form, Object[] args) {
    for (int whole = 0; whole < args.length; whole++) {
      SplitForm.Share read = share(spec, form, whole);
      if (read == null || read.role() != SplitForm.Role.WHOLE) {
        continue;
      }
      for (int sliced = 0; sliced < args.length; sliced++) {
        if (args[sliced] == args[whole]
            && share(spec, form, sliced) != null
            && share(spec, form, sliced).role() == SplitForm.Role.SLICED
            && KernelDescriptions.of(spec).access(sliced) != Access.READ) {
          throw new IllegalArgumentException(
              spec
                  + ": one array is passed as '"
                  + spec.params().get(whole).name()
                  + (read.reach().isEmpty()
                      ? "', which every device reads anywhere, and as '"
                      : "', which each device reads beyond its own elements, and as '")
                  + spec.params().get(sliced).name()
                  + "', which each"
                  + " device writes part of; split, the devices would read each other's writes in an order no single"
                  + " device has. Fix: pass a copy as '"
                  + spec.params().get(whole).name()
                  + "', or run on one device");
        }
      }
    }
  }

  static SplitForm.Share share(KernelSpec spec, SplitForm form, int param) {
    return spec.params().get(param).isBuffer() ? form.buffers().get(param) : null;
  }

  /** A device's part: the whole launch's grids, its range of ids, and what moves of each array. */
  private static Launch part(
      KernelSpec spec, SplitForm form, int count, int first, int end, Object[] args) {
    Launch launch = new Launch().start(spec);
    for (int arm = 0; arm < spec.gridCount(); arm++) {
      launch.grid(arm, count, 1, 1);
    }
    launch.part(first, end);
    for (int param = 0; param < args.length; param++) {
      SplitForm.Share share = share(spec, form, param);
      if (share != null) {
        int length = java.lang.reflect.Array.getLength(args[param]);
        long stride = share.stride();
        launch.slice(
            param,
            share.role() == SplitForm.Role.WHOLE
                ? new Launch.Slice(0, length, false)
                : new Launch.Slice(
                    (int) Math.min(stride * first, length),
                    (int) Math.min(stride * end, length),
                    true));
      }
    }
    return launch;
  }

  /**
   * Runs the parts at once, one per thread; rethrows the first part's fault, naming its device (in
   * a fused group, the first part's among those that faulted in the lowest arm, as Java runs the
   * arms one after the other), the others' suppressed in it.
   */
  private void runSideBySide(List<Piece> pieces, ToLongFunction<Piece> run, long[] nanos) {
    List<Future<Long>> futures = new ArrayList<>();
    ExecutorService pool = threads();
    for (Piece piece : pieces) {
      futures.add(pool.submit(() -> run.applyAsLong(piece)));
    }
    List<RuntimeException> faults = new ArrayList<>();
    RuntimeException first = null;
    int firstArm = Integer.MAX_VALUE;
    for (int k = 0; k < futures.size(); k++) {
      try {
        nanos[k] = futures.get(k).get();
      } catch (ExecutionException e) {
        RuntimeException named = named(e.getCause(), pieces.get(k));
        faults.add(named);
        int arm = pieces.get(k).launch().faultArm();
        if (arm < firstArm) {
          first = named;
          firstArm = arm;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for a split launch", e);
      }
    }
    if (first != null) {
      for (RuntimeException other : faults) {
        if (other != first) {
          first.addSuppressed(other);
        }
      }
      throw first;
    }
  }

  private static long timed(Piece piece, Object[] args) {
    long start = System.nanoTime();
    piece.device().launches.onCopies(piece.launch(), args);
    return System.nanoTime() - start;
  }

  /** What a part threw, as the one-device launch throws it, with the device and its range named. */
  private static RuntimeException named(Throwable thrown, Piece piece) {
    if (thrown instanceof Error error) {
      throw error;
    }
    String where =
        " (on "
            + piece.device()
            + ", which ran ids "
            + piece.first()
            + " to "
            + (piece.end() - 1)
            + " of a split launch)";
    RuntimeException named =
        switch (thrown) {
          case ArrayIndexOutOfBoundsException e ->
              new ArrayIndexOutOfBoundsException(e.getMessage() + where);
          case ArithmeticException e -> new ArithmeticException(e.getMessage() + where);
          case IllegalArgumentException e -> new IllegalArgumentException(e.getMessage() + where);
          case IllegalStateException e -> new IllegalStateException(e.getMessage() + where);
          case RuntimeException e -> e;
          default -> new IllegalStateException("a split launch's part threw" + where, thrown);
        };
    if (named != thrown && named.getCause() == null) {
      named.initCause(thrown);
      named.setStackTrace(thrown.getStackTrace());
    }
    return named;
  }

  private synchronized ExecutorService threads() {
    if (threads == null) {
      threads =
          Executors.newFixedThreadPool(
              devices.size(), Thread.ofPlatform().daemon().name("kiln-split-", 0).factory());
    }
    return threads;
  }

  /** Stops the set's threads once running launches end; the devices stay open. */
  @Override
  public synchronized void close() {
    closed = true;
    if (threads != null) {
      threads.shutdown();
    }
  }
}
