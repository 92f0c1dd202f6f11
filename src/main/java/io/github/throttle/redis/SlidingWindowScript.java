package io.github.throttle.redis;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.lettuce.core.codec.Base16;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The script {@code sliding-window.lua}: its text and SHA-1, how a {@link StoreCall} becomes its KEYS and
 * ARGV, and how its reply becomes a {@link StoreReply}. The script's header comment is the contract.
 */
public final class SlidingWindowScript {

    public static final String RESOURCE = "/io/github/throttle/redis/sliding-window.lua";
    public static final String TEXT = read();
    public static final String SHA1 = Base16.digest(TEXT.getBytes(StandardCharsets.UTF_8));

    /** Windows of at most this many sub-buckets keep them in a ring; longer ones in a chain (see the script). */
    static final long RING_SUB_BUCKETS = 64;

    /** ARGV[2]: only report usage. */
    public static final String REPORT = "0";
    /** ARGV[2]: record an allowed call. */
    public static final String RECORD = "1";
    /** ARGV[2]: record an allowed call and end the reply with the sub-bucket of each window. */
    public static final String RECORD_AND_TELL_SUB_BUCKETS = "2";
    /** ARGV[2]: undo a call recorded with {@link #RECORD_AND_TELL_SUB_BUCKETS}. */
    public static final String REFUND = "-1";

    private SlidingWindowScript() {
    }

    /** The mode (ARGV[2]) of a call decided in one script run. */
    public static String mode(StoreCall call) {
        if (!call.record()) {
            return REPORT;
        }
        return call.returnable() ? RECORD_AND_TELL_SUB_BUCKETS : RECORD;
    }

    /**
     * The field prefix naming a limit's window inside an identity's hash, so that the windows of one bucket
     * never collide: duration and (unless a fixed window) precision in base 36, ending in {@code ';'} for a
     * window kept as a chain, else {@code ':'}: a version with another ring size, sharing the Redis during a
     * rolling upgrade, never reads a ring as a chain or the other way round.
     */
    public static String tag(Limit l) {
        return Long.toString(l.durationMillis(), 36)
                + (l.precisionMillis() == l.durationMillis() ? "" : "/" + Long.toString(l.precisionMillis(), 36))
                + (l.subBuckets() > RING_SUB_BUCKETS ? ";" : ":");
    }

    /** ARGV as documented in the script header, with the given mode (ARGV[2]). */
    public static String[] args(StoreCall call, long expirySlackMillis, String mode) {
        int keys = call.keyCount();
        String[] a = new String[3 + keys + call.pairCount() * 5];
        a[0] = call.nowMillis() >= 0 ? number(call.nowMillis()) : "";
        a[1] = mode;
        a[2] = number(expirySlackMillis);
        int i = 3;
        for (int k = 0; k < keys; k++) {
            int from = call.firstPair(k);
            int to = call.firstPair(k + 1);
            a[i++] = number(to - from);
            for (int p = from; p < to; p++) {
                Limit l = call.limit(p);
                a[i++] = tag(l);
                a[i++] = number(l.limit());
                a[i++] = number(l.precisionMillis());
                a[i++] = number(l.subBuckets());
                a[i++] = number(call.weight(p));
            }
        }
        return a;
    }

    /**
     * ARGV of the refund of {@code call}'s weight (a give-back, or the undoing of a part of a call that another
     * part denied), recorded in {@code subBuckets}: one per pair, as the reply of mode
     * {@link #RECORD_AND_TELL_SUB_BUCKETS} told them.
     */
    public static String[] giveBackArgs(StoreCall call, long expirySlackMillis, long[] subBuckets) {
        String[] recorded = args(call, expirySlackMillis, REFUND);
        String[] a = Arrays.copyOf(recorded, recorded.length + subBuckets.length);
        for (int p = 0; p < subBuckets.length; p++) {
            a[recorded.length + p] = number(subBuckets[p]);
        }
        return a;
    }

    /**
     * Reads the reply: {@code {allowed, then remaining and wait per pair}} (a violated pair's wait negated),
     * followed (mode {@link #RECORD_AND_TELL_SUB_BUCKETS} only) by one sub-bucket per pair, kept in the reply
     * of an allowed call for a give-back.
     */
    public static StoreReply reply(List<Object> reply, StoreCall call) {
        int pairs = call.pairCount();
        if (reply == null || (reply.size() != 1 + pairs * 2 && reply.size() != 1 + pairs * 3)) {
            throw new IllegalStateException("unexpected script reply for " + pairs + " limits: " + reply);
        }
        long[] figures = new long[pairs * 3];
        for (int p = 0; p < pairs; p++) {
            long wait = (Long) reply.get(2 + 2 * p);
            figures[p * 3] = (Long) reply.get(1 + 2 * p);
            figures[p * 3 + 1] = Math.abs(wait);
            figures[p * 3 + 2] = wait < 0 ? 1 : 0;
        }
        boolean allowed = (Long) reply.get(0) == 1L;
        if (!allowed || reply.size() == 1 + pairs * 2) {
            return new StoreReply(allowed, figures);
        }
        long[] subBuckets = new long[pairs];
        for (int p = 0; p < pairs; p++) {
            subBuckets[p] = (Long) reply.get(1 + pairs * 2 + p);
        }
        return new StoreReply(true, figures, subBuckets);
    }

    /** Numbers go in base 36: Redis reads them with strtoul, at half the cost of a decimal number (strtod). */
    private static String number(long n) {
        return Long.toString(n, 36);
    }

    private static String read() {
        try (InputStream in = SlidingWindowScript.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
