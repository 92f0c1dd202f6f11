package io.github.throttle.redis;

import io.github.throttle.engine.Limit;
import io.github.throttle.engine.CallFailure;
import io.github.throttle.engine.Leased;
import io.github.throttle.engine.StoreCall;
import io.github.throttle.engine.StoreReply;
import io.github.throttle.engine.Taken;
import io.github.throttle.engine.Took;
import io.lettuce.core.codec.Base16;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The script {@code sliding-window.lua}: its text and SHA-1, how a {@link StoreCall} becomes its KEYS and
 * ARGV, and how its reply becomes a {@link StoreReply}. The script's header comment is the contract.
 */
public final class SlidingWindowScript {

    public static final String RESOURCE = "/io/github/throttle/redis/sliding-window.lua";
    public static final String TEXT = text(RESOURCE);
    public static final String SHA1 = Base16.digest(TEXT.getBytes(StandardCharsets.UTF_8));

    /** Windows of at most this many sub-buckets keep them in a ring; longer ones in a chain (see the script). */
    static final long RING_SUB_BUCKETS = 64;

    /** Mode of a call: only report usage. */
    public static final String REPORT = "0";
    /**
     * Mode of a call: record it when allowed and end its reply with the sub-bucket of each window. Every recorded
     * call is sent so (the script's mode "1", which does not tell them, serves earlier versions): whatever a call
     * took can be given back, also when its reply comes after its caller was answered without it.
     */
    public static final String RECORD_AND_TELL_SUB_BUCKETS = "2";
    /** Mode of a call: undo a call recorded with {@link #RECORD_AND_TELL_SUB_BUCKETS}. */
    static final String REFUND = "-1";
    /** Mode of a call: a lease of up to the call's weight (see the script's "Leases"). */
    static final String LEASE = "3";

    private SlidingWindowScript() {
    }

    /** The mode of a call: {@link #RECORD_AND_TELL_SUB_BUCKETS}, or {@link #REPORT} when it only reports usage. */
    public static String mode(StoreCall call) {
        return call.record() ? RECORD_AND_TELL_SUB_BUCKETS : REPORT;
    }

    /**
     * The field prefix naming a limit's window inside an identity's hash, so that the windows of one bucket
     * never collide: duration and (unless a fixed window) precision in base 36, ending in {@code ';'} for a
     * window kept as a chain, else {@code ':'}: a version with another ring size, sharing the Redis during a
     * rolling upgrade, never reads a ring as a chain or the other way round. The seats of an in-flight limit
     * are named by the lease and {@code '@'}.
     */
    public static String tag(Limit l) {
        if (l.inFlight()) {
            // seats: never a rate window's field, whatever its length
            return Long.toString(l.durationMillis(), 36) + "@";
        }
        return Long.toString(l.durationMillis(), 36)
                + (l.precisionMillis() == l.durationMillis() ? "" : "/" + Long.toString(l.precisionMillis(), 36))
                + (l.subBuckets() > RING_SUB_BUCKETS ? ";" : ":");
    }

    /**
     * KEYS and ARGV of one script run, as documented in the script header: the calls added, decided (or refunded)
     * one after the other in the order added. Its reply holds one reply per call, in that order.
     */
    public static final class Run {

        private final List<String> args = new ArrayList<>();
        private final Map<String, Integer> keyNumbers = new HashMap<>();
        private final List<String> keys = new ArrayList<>();
        private int calls;

        /** @param expirySlackMillis kept after a key's last weight leaves its windows (0 in production) */
        public Run(long expirySlackMillis) {
            args.add(number(expirySlackMillis));
            args.add("");
        }

        /** Adds a call to decide in the given mode: {@link #REPORT} or {@link #RECORD_AND_TELL_SUB_BUCKETS}. */
        public Run decide(StoreCall call, String mode) {
            add(call, mode, call.maxWaitMillis(), call.leaseId());
            return this;
        }

        /** Adds a call to decide in its own {@linkplain #mode(StoreCall) mode}. */
        public Run decide(StoreCall call) {
            return decide(call, mode(call));
        }

        /**
         * Adds a lease of up to {@code most} of {@code call}'s weight, living at most {@code lifeMillis}: one key, every
         * pair the same weight, no seats, no wait; {@code call}'s lease id is the generation token to set on the key
         * when it has none.
         */
        public Run lease(StoreCall call, long most, long lifeMillis) {
            add(call, LEASE, most, call.leaseId());
            args.add(number(lifeMillis));
            return this;
        }

        /**
         * Adds the refund of {@code call}'s weight (a give-back, or the undoing of a part of a call that another
         * part denied): what each pair took, as the reply of mode {@link #RECORD_AND_TELL_SUB_BUCKETS} told it.
         */
        public Run refund(Took took) {
            StoreCall call = took.call();
            // a call with no seats holds a lease id only as a lease's give-back: its generation
            add(call, REFUND, 0, call.inFlight() ? 0 : call.leaseId());
            for (int p = 0; p < call.pairCount(); p++) {
                args.add(number(told(took.taken(p))));
            }
            return this;
        }

        private void add(StoreCall call, String mode, long wait, long lease) {
            calls++;
            args.add(call.nowMillis() >= 0 ? number(call.nowMillis()) : "");
            args.add(mode);
            args.add(number(wait));
            args.add(lease == 0 ? "" : number(lease));
            args.add(number(call.keyCount()));
            for (int k = 0; k < call.keyCount(); k++) {
                String key = call.key(k);
                Integer n = keyNumbers.get(key);
                if (n == null) {
                    keys.add(key);
                    n = keys.size();
                    keyNumbers.put(key, n);
                }
                int from = call.firstPair(k);
                int to = call.firstPair(k + 1);
                args.add(number(n));
                args.add(number(to - from));
                for (int p = from; p < to; p++) {
                    Limit l = call.limit(p);
                    args.add(tag(l));
                    // the pair's bound: its limit, unless it shares its count with a heavier limit (StoreCall)
                    args.add(number(call.bound(p)));
                    args.add(number(l.precisionMillis()));
                    // k = 0 names the seats of an in-flight limit, p then being its lease
                    args.add(number(l.inFlight() ? 0 : l.subBuckets()));
                    args.add(number(call.countWeight(p)));
                }
            }
        }

        /** How many calls this run holds. */
        public int size() {
            return calls;
        }

        public String[] keys() {
            return keys.toArray(String[]::new);
        }

        public String[] args() {
            args.set(1, number(calls));
            return args.toArray(String[]::new);
        }
    }

    /**
     * The reply of call {@code i} of a run, from the run's reply; null when the run ended before that call (an
     * earlier call failed: this one was not run).
     *
     * @throws ScriptFailure when this call failed in the script
     */
    @SuppressWarnings("unchecked")
    public static List<Object> replyOf(List<Object> runReply, int i) {
        if (runReply != null && runReply.size() <= i) {
            return null;
        }
        Object reply = runReply == null ? null : runReply.get(i);
        if (reply instanceof List) {
            return (List<Object>) reply;
        }
        throw new ScriptFailure("the script failed deciding a call: " + reply);
    }

    /** A call the script could not decide: its writes may be partly done, the calls of its run before it stand. */
    public static final class ScriptFailure extends CallFailure {
        ScriptFailure(String message) {
            super(message);
        }
    }

    /**
     * Reads one call's reply ({@link #replyOf}): {@code {allowed, then remaining and wait per pair}} (allowed: 0,
     * 1, or 1 + the delay of a reserved call; a violated pair's wait negated),
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
        long answer = (Long) reply.get(0);
        boolean allowed = answer >= 1;
        long delay = allowed ? answer - 1 : 0;
        if (!allowed || reply.size() == 1 + pairs * 2) {
            return new StoreReply(allowed, figures, null, delay);
        }
        Taken[] taken = new Taken[pairs];
        for (int p = 0; p < pairs; p++) {
            taken[p] = taken(call, p, (Long) reply.get(1 + pairs * 2 + p));
        }
        return new StoreReply(true, figures, taken, delay);
    }

    /**
     * Reads a lease's reply ({@link #replyOf}): a grant as a recorded call's reply of the weight granted, followed by
     * that weight, how long it lives and the key's generation; a denial as the call's, followed by how long the key's
     * leases still live.
     */
    public static Leased leased(List<Object> reply, StoreCall call) {
        if (reply == null || reply.isEmpty()) {
            throw new IllegalStateException("unexpected lease reply: " + reply);
        }
        if ((Long) reply.get(0) >= 1) {
            int n = reply.size() - 3;
            long granted = (Long) reply.get(n);
            StoreCall lease = call.leasing(granted, (Long) reply.get(n + 2));
            return new Leased(lease, reply(reply.subList(0, n), lease), (Long) reply.get(n + 1));
        }
        int n = reply.size() - 1;
        return new Leased(call, reply(reply.subList(0, n), call), (Long) reply.get(n));
    }

    /** The script's number for what a pair took: the sub-bucket, {@code -1 - b} for one reserved, or the lease id. */
    private static long told(Taken t) {
        if (t instanceof Taken.Counted c) {
            return c.subBucket();
        }
        if (t instanceof Taken.Reserved r) {
            return -1 - r.subBucket();
        }
        return ((Taken.Lease) t).id();
    }

    /** What pair {@code p} of {@code call} took, from the number the script told. */
    private static Taken taken(StoreCall call, int p, long told) {
        if (call.limit(p).inFlight()) {
            return new Taken.Lease(told);
        }
        return told < 0 ? new Taken.Reserved(-1 - told) : new Taken.Counted(told);
    }

    /** Numbers go in base 36: Redis reads them with strtoul, at half the cost of a decimal number (strtod). */
    private static String number(long n) {
        return Long.toString(n, 36);
    }

    /** The text of a script shipped in this jar, at {@code resource}. */
    static String text(String resource) {
        try (InputStream in = SlidingWindowScript.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
