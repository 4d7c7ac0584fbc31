// Workload for bench/corpus.sh's "JDK file": a busy service-like program whose threads (16 by
// default) run requests through a few layers of mutually recursive handlers, allocate small
// objects at a high rate (many TLAB refills: jdk.ObjectAllocationInNewTLAB events with stacks),
// compute (jdk.ExecutionSample) and contend on a few monitors and parks (jdk.JavaMonitorEnter,
// jdk.ThreadPark). Each request follows one of ROUTES call paths (a seed fixes the path), so
// the recording holds a few thousand distinct stacks of 10-40 frames, as a real service's does.
// Usage: java BusyWorkload SECONDS THREADS [ROUTES]
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

public class BusyWorkload {
  static final Object[] LOCKS = {new Object(), new Object(), new Object(), new Object()};
  static volatile long sink;

  static long mix(long s) {
    s ^= s >>> 33;
    s *= 0xff51afd7ed558ccdL;
    s ^= s >>> 29;
    return s;
  }

  // Four layers that call each other; the seed's low bits pick the next layer.
  static long route(int depth, long seed, int op) {
    if (depth == 0) return leaf(seed, op);
    switch ((int) (seed & 3)) {
      case 0: return Orders.handle(depth - 1, mix(seed), op);
      case 1: return Pricing.quote(depth - 1, mix(seed), op);
      case 2: return Inventory.lookup(depth - 1, mix(seed), op);
      default: return Codec.decode(depth - 1, mix(seed), op);
    }
  }

  static final class Orders {
    static long handle(int depth, long seed, int op) {
      sink += depth;
      return route(depth, seed >>> 2, op);
    }
  }

  static final class Pricing {
    static long quote(int depth, long seed, int op) {
      long r = route(depth, seed >>> 2, op);
      return r * 31 + depth;
    }
  }

  static final class Inventory {
    static long lookup(int depth, long seed, int op) {
      if ((seed & 16) != 0) return route(depth, seed >>> 2, op) + 1;
      return route(depth, seed >>> 3, op);
    }
  }

  static final class Codec {
    static long decode(int depth, long seed, int op) {
      return route(depth, seed >>> 2, op) ^ depth;
    }
  }

  static long leaf(long seed, int op) {
    switch (op) {
      case 0: return compute(seed);
      case 1: return allocate(seed);
      case 2: return buildMap(seed);
      default: return contend(seed);
    }
  }

  static long compute(long x) {
    for (int i = 0; i < 3000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
    return x;
  }

  static long allocate(long seed) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 40; i++) out.add("item-" + i + "-" + (seed & 0xff));
    byte[] buf = new byte[256 + (int) (seed & 511)];
    return buf.length + out.size();
  }

  static long buildMap(long seed) {
    Map<Integer, long[]> m = new HashMap<>();
    for (int i = 0; i < 24; i++) m.put(i, new long[4 + (int) (seed & 7)]);
    return m.size();
  }

  static long contend(long seed) {
    synchronized (LOCKS[(int) (seed & 3)]) {
      long r = compute(seed);
      if ((seed & 7) == 0) LockSupport.parkNanos(20_000);
      return r;
    }
  }

  public static void main(String[] args) throws Exception {
    long seconds = Long.parseLong(args[0]);
    int threads = Integer.parseInt(args[1]);
    int routes = args.length > 2 ? Integer.parseInt(args[2]) : 150;
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      final int id = t;
      Thread th = new Thread(() -> {
        long rng = 0x9E3779B97F4A7C15L * (id + 1);
        long i = 0;
        while (System.nanoTime() < end) {
          rng = mix(rng + 0x9E3779B97F4A7C15L);
          long seed = mix(Long.remainderUnsigned(rng, routes) + 1);
          int depth = 4 + (int) Long.remainderUnsigned(seed >>> 40, 21);
          // Mostly allocation, some compute, a little contention.
          int slot = (int) (i++ % 20);
          int op = slot < 10 ? 1 : slot < 13 ? 2 : slot < 19 ? 0 : 3;
          sink += route(depth, seed, op);
        }
      }, "worker-" + t);
      th.start();
      all.add(th);
    }
    for (Thread th : all) th.join();
  }
}
