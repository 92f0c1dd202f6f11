package io.github.throttle.limiter;

import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The report-mode log of one bucket: at most one INFO line a minute, saying how many calls enforce mode
 * would have refused since the last line. No identity is logged.
 */
final class ReportLog {

    static final long EVERY_MILLIS = 60_000;
    private static final System.Logger LOG = System.getLogger("io.github.throttle");

    private final String bucket;
    private final InstantSource clock;
    private final AtomicLong wouldDeny = new AtomicLong();
    private final AtomicLong nextLineAt = new AtomicLong(Long.MIN_VALUE);

    ReportLog(String bucket, InstantSource clock) {
        this.bucket = bucket;
        this.clock = clock;
    }

    /** Counts one call enforce mode would have refused; returns the line to log now, if one is due. */
    String wouldDeny() {
        wouldDeny.incrementAndGet();
        long now = clock.millis();
        long due = nextLineAt.get();
        if (now < due || !nextLineAt.compareAndSet(due, now + EVERY_MILLIS)) {
            return null;
        }
        long n = wouldDeny.getAndSet(0);
        String line = "Throttle report mode: " + n + (n == 1 ? " call" : " calls") + " to bucket " + bucket
                + " would have been denied" + (due == Long.MIN_VALUE ? "" : " in the last minute");
        LOG.log(System.Logger.Level.INFO, line);
        return line;
    }
}
