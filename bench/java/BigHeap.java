import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fills the heap for the HPROF benchmark: maps of records holding atomics, strings and arrays, a
 * concurrent map of sessions, random byte arrays, and a thread pool with a queued backlog (what the
 * analyses go looking for). Prints READY when built, then waits to be dumped.
 *
 *   java -Xms4g -Xmx4g -XX:+UseParallelGC BigHeap <records>
 */
public class BigHeap {
    static class Rec {
        final AtomicInteger hits = new AtomicInteger();
        final AtomicLong bytes = new AtomicLong();
        final String label;
        final int[] slots = new int[4];
        long created;
        double score;

        Rec(String label, long created) {
            this.label = label;
            this.created = created;
            this.score = created / 7.0;
            hits.set((int) created);
            bytes.set(created * 31);
        }
    }

    static class Session extends Rec {
        final List<String> tags = new ArrayList<>();

        Session(String label, long created) {
            super(label, created);
            tags.add("tag-" + (created % 97));
        }
    }

    static final Map<String, Rec> RECORDS = new HashMap<>();
    static final Map<Long, Session> SESSIONS = new ConcurrentHashMap<>();
    static final List<byte[]> BLOBS = new ArrayList<>();
    static final List<long[]> LONGS = new ArrayList<>();
    static final CountDownLatch NEVER = new CountDownLatch(1);
    static ThreadPoolExecutor POOL;

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        Random random = new Random(42);
        for (int i = 0; i < n; i++) RECORDS.put("rec-" + i, new Rec("label-" + i, i));
        for (long i = 0; i < n / 4; i++) SESSIONS.put(i, new Session("session-" + i, i));
        for (int i = 0; i < n / 100; i++) {
            byte[] b = new byte[1024 + random.nextInt(16 * 1024)];
            random.nextBytes(b);
            BLOBS.add(b);
        }
        for (int i = 0; i < 2000; i++) LONGS.add(new long[4096]);
        // A pool whose two workers are stuck, with a backlog in its queue.
        POOL = new ThreadPoolExecutor(2, 2, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
        for (int i = 0; i < 2; i++) POOL.execute(() -> {
            try {
                NEVER.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        for (int i = 0; i < 100_000; i++) {
            final int id = i;
            POOL.execute(() -> RECORDS.get("rec-" + id));
        }
        System.gc();
        System.out.println("READY " + (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) / 1048576 + " MB used");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
