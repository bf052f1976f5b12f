package dev.kiln.cpu;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A barrier for the invocations of one workgroup, run as virtual threads. Waiters park (a {@code
 * Phaser} spins, which starves the few carrier threads) and the last arrival unparks them directly;
 * an invocation that ends leaves the barrier so the others are not stranded.
 */
final class WorkgroupBarrier {
  private final ConcurrentLinkedQueue<Thread> parked = new ConcurrentLinkedQueue<>();
  private int parties;
  private int waiting;
  private volatile long phase;
  private Runnable onOpen = () -> {};

  WorkgroupBarrier(int parties) {
    this.parties = parties;
  }

  /** What runs when the barrier opens, before any invocation goes on. */
  void onOpen(Runnable action) {
    this.onOpen = action;
  }

  void await() {
    long arrivedIn;
    synchronized (this) {
      arrivedIn = phase;
      if (++waiting == parties) {
        advance();
        return;
      }
    }
    Thread self = Thread.currentThread();
    parked.add(self);
    while (phase == arrivedIn) {
      LockSupport.park(this);
    }
  }

  /** The calling invocation has ended. */
  void leave() {
    synchronized (this) {
      parties--;
      if (waiting > 0 && waiting == parties) {
        advance();
      }
    }
  }

  /** Called holding the monitor: opens the next phase and wakes everyone waiting for it. */
  private void advance() {
    onOpen.run();
    waiting = 0;
    phase++;
    for (Thread waiter = parked.poll(); waiter != null; waiter = parked.poll()) {
      LockSupport.unpark(waiter);
    }
  }
}
