// Workload for bench/corpus.sh's "deep-stacks file": 16 threads (by default) walk many different
// deep call paths through a graph of about a thousand generated methods (DeepPaths.java, written
// by bench/corpus.sh: each method calls one of four others, picked by the path's seed, so paths
// recurse and repeat methods), then compute and allocate at the end of the path. A request's
// seed fixes its path and depth (16-112 calls), and seeds are drawn from a pool of PATHS, so a
// recording holds on the order of PATHS x (allocation sites + cpu frames) distinct stacks,
// 20-120 frames deep, like a large application profiled with async-profiler.
// Usage: java DeepStacks SECONDS THREADS [PATHS]
import java.util.ArrayList;
import java.util.List;

public class DeepStacks {
  static volatile long sink;

  static long mix(long s) {
    s ^= s >>> 33;
    s *= 0xff51afd7ed558ccdL;
    s ^= s >>> 29;
    s *= 0xc4ceb9fe1a85ec53L;
    s ^= s >>> 32;
    return s;
  }

  // The end of every path: one of a few kinds of work, picked by the seed's top bits.
  static long leaf(long s) {
    switch ((int) (s >>> 61)) {
      case 0: case 1: return compute(s);
      case 2: return strings(s);
      case 3: return arrays(s);
      case 4: return boxes(s);
      case 5: return Long.numberOfTrailingZeros(compute(s)) + arrays(s);
      default: return buffers(s);
    }
  }

  static long compute(long x) {
    for (int i = 0; i < 1500; i++) x = x * 6364136223846793005L + 1442695040888963407L;
    return x;
  }

  static long strings(long s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 12; i++) b.append("k").append(s & 0xfff).append(i);
    return b.toString().length();
  }

  static long arrays(long s) {
    long[] a = new long[32 + (int) (s & 63)];
    for (int i = 0; i < a.length; i++) a[i] = s + i;
    return a[a.length - 1];
  }

  static long boxes(long s) {
    List<Long> l = new ArrayList<>();
    for (int i = 0; i < 24; i++) l.add(s + i);
    return l.size();
  }

  static long buffers(long s) {
    byte[] b = new byte[512 + (int) (s & 1023)];
    b[0] = (byte) s;
    return b.length + compute(s & 0xff);
  }

  public static void main(String[] args) throws Exception {
    long seconds = Long.parseLong(args[0]);
    int threads = Integer.parseInt(args[1]);
    int paths = args.length > 2 ? Integer.parseInt(args[2]) : 40000;
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      final int id = t;
      Thread th = new Thread(() -> {
        long rng = 0x9E3779B97F4A7C15L * (id + 1);
        while (System.nanoTime() < end) {
          rng = mix(rng + 0x9E3779B97F4A7C15L);
          // Skewed towards low path numbers: some paths are hot, most are warm.
          long a = Long.remainderUnsigned(rng, paths), b = Long.remainderUnsigned(rng >>> 20, paths);
          long seed = mix(Math.min(a, b) + 1);
          int depth = 16 + (int) Long.remainderUnsigned(seed >>> 7, 97);
          sink += DeepPaths.enter(depth, seed);
        }
      }, "worker-" + t);
      th.start();
      all.add(th);
    }
    for (Thread th : all) th.join();
  }
}
