// Workload for bench/jfr_load.sh: busy threads that compute, allocate and contend on monitors
// so that a JDK Flight Recorder recording fills with execution samples (1 ms), allocation
// events and monitor events, with stacks of realistic depth. Usage: java Workload SECONDS THREADS
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

public class Workload {
  static final Object[] LOCKS = {new Object(), new Object(), new Object()};
  static volatile long sink;

  static long compute(int depth, long x) {
    if (depth > 0) return compute(depth - 1, x * 31 + depth);
    for (int i = 0; i < 2000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
    return x;
  }

  static List<String> allocate(int depth, int n) {
    if (depth > 0) return allocate(depth - 1, n);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) out.add("item-" + i + "-" + (sink & 0xff));
    byte[] big = new byte[64 * 1024 + (int) (sink & 1023)];
    sink += big.length + out.size();
    return out;
  }

  static void contend(int which) {
    synchronized (LOCKS[which % LOCKS.length]) {
      sink += compute(3, which);
      if ((which & 7) == 0) LockSupport.parkNanos(20_000);
    }
  }

  public static void main(String[] args) throws Exception {
    long seconds = Long.parseLong(args[0]);
    int threads = Integer.parseInt(args[1]);
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      final int id = t;
      Thread th = new Thread(() -> {
        int i = 0;
        while (System.nanoTime() < end) {
          switch (i++ % 3) {
            case 0: sink += compute(8 + (i % 17), i); break;
            case 1: sink += allocate(4 + (i % 13), 50).size(); break;
            default: contend(id + i);
          }
        }
      }, "worker-" + t);
      th.start();
      all.add(th);
    }
    for (Thread th : all) th.join();
  }
}
