package io.github.throttle.bench;

import io.lettuce.core.ScriptOutputType;

/** The workload after idle gaps, of the window and instruction rows: client time, keys aged as Redis would hold them. */
final class IdleGaps {

    private IdleGaps() {
    }

    /**
     * Idle gaps: {@code n} identities get weight in 5 sub-buckets 2.5 min apart (client time, 2 h ago), and
     * their keys are aged to 65.5 min after the first; returns that time, when a call sees 3 of those
     * sub-buckets leave the window.
     */
    static long setUp(RedisServer server, Engine.Bucket bucket, int callers, int n) throws InterruptedException {
        long t0 = System.currentTimeMillis() - 7_200_000;
        for (int k = 0; k < 5; k++) {
            long at = t0 + k * 150_000L;
            Load.drain(callers, n, i -> bucket.decide(Context.identity(i), at));
        }
        long later = t0 + 3_600_000 + 330_000;
        age(server, bucket, n, later - (t0 + 4 * 150_000L));
        return later;
    }

    /**
     * The keys of {@code n} identities as they would be {@code millis} later: client time lets the calls
     * jump ahead, but their keys' expiry counts real time, so without this a key would live on past the
     * end of its windows (and a call after the gap would find a fixed window's key that Redis had dropped).
     */
    static void age(RedisServer server, Engine.Bucket bucket, int n, long millis) {
        String script = "for _, k in ipairs(KEYS) do local t = redis.call('PTTL', k) - tonumber(ARGV[1]) "
                + "if t > 0 then redis.call('PEXPIRE', k, t) else redis.call('DEL', k) end end return 0";
        for (int from = 0; from < n; from += 1_000) {
            String[] keys = new String[Math.min(1_000, n - from)];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = bucket.key(Context.identity(from + i));
            }
            server.admin.eval(script, ScriptOutputType.INTEGER, keys, Long.toString(millis));
        }
    }
}
