package io.github.throttle.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Whether admissions known only to within an interval of store time can have kept one limit: is there a placement
 * of every admission at some instant of its interval such that every window of the limit (one starting at every
 * sub-bucket start; for a fixed window, the epoch-aligned ones) counts at most the limit?
 *
 * <p>The question is answered for the relaxation where an admission's weight may be spread over the sub-buckets of
 * its interval: when even that cannot keep the limit, no placement can, so a violation reported here is certain (no
 * false alarm). With weights of 1 the relaxation is exact (the constraints below are a difference system, whose
 * integer bounds give an integer solution whenever there is one), so no window's edge is a blind spot.
 *
 * <p>With {@code S(k)} the weight placed in sub-buckets up to {@code k}, a placement exists exactly when the
 * difference constraints hold: every window {@code S(e) - S(e - n) <= limit}; every run of sub-buckets
 * {@code [s, t]} holds at least the weight of the admissions whose interval lies inside it,
 * {@code S(t) - S(s - 1) >= inside(s, t)} (Hall's condition, which for intervals needs only runs); and everything is
 * placed, {@code S(last) - S(first) <= total}. Such a system is feasible exactly when its constraint graph has no
 * negative cycle (Bellman-Ford).
 */
public final class WindowCheck {

    /** An admission: counted at some instant of {@code [from, to]} (store milliseconds), with {@code weight}. */
    public record Admission(long from, long to, long weight, Object call) {
        public Admission {
            if (to < from) {
                throw new IllegalArgumentException("an interval ending before it starts: " + from + ".." + to);
            }
        }
    }

    /** A limit as the store counts it: at most {@code limit} per {@code durationMillis}, in sub-buckets of {@code precisionMillis}. */
    public record Window(long limit, long durationMillis, long precisionMillis) {
        long subBuckets() {
            return durationMillis / precisionMillis;
        }
    }

    /**
     * Why no placement keeps the limit: the smallest run of sub-buckets found whose certainly-contained admissions
     * exceed what its windows allow, or, when no single window shows it, the sub-buckets of the constraints that
     * cannot hold together.
     */
    public record Violation(Window window, long fromMillis, long toMillis, long counted, long allowed, List<Admission> admissions) {
        @Override
        public String toString() {
            StringBuilder s = new StringBuilder("limit " + window.limit() + " per " + window.durationMillis() + " ms by "
                    + window.precisionMillis() + " ms: " + counted + " weight in [" + fromMillis + ", " + toMillis + ")"
                    + (allowed < 0 ? ", which no placement keeps within the limit" : " where at most " + allowed + " fit")
                    + "; admissions (method@instance: ms from its start, weight):");
            admissions.stream().sorted(java.util.Comparator.comparingLong(Admission::from)).forEach(a -> s.append(' ')
                    .append(a.call() instanceof History.Call c ? c.method() + "@" + c.instance() + ":" : "").append(a.from() - fromMillis).append(a.to() == a.from() ? "" : ".." + (a.to() - fromMillis)).append('/').append(a.weight()));
            return s.toString();
        }
    }

    private WindowCheck() {
    }

    /** A violation of {@code window} by {@code admissions}, if no placement keeps it. */
    public static Optional<Violation> check(Window window, List<Admission> admissions) {
        if (admissions.isEmpty()) {
            return Optional.empty();
        }
        long p = window.precisionMillis();
        long n = window.subBuckets();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long total = 0;
        for (Admission a : admissions) {
            first = Math.min(first, Math.floorDiv(a.from(), p));
            last = Math.max(last, Math.floorDiv(a.to(), p));
            total += a.weight();
        }
        // a window certainly over its limit names the broken window at once (and is the common case)
        Optional<Violation> plain = certainWindow(window, admissions, first, last);
        if (plain.isPresent()) {
            return plain;
        }
        // nodes: S(k) for sub-buckets base .. last, k - base the node's index; node 0 is the empty prefix
        long base = first - 1;
        int nodes = Math.toIntExact(last - base + 1);
        List<long[]> edges = new ArrayList<>();
        for (int e = 1; e < nodes; e++) {
            // every window ending at sub-bucket e (for a fixed window, only the aligned ones)
            edges.add(new long[]{Math.max(0, e - n), e, window.limit()});
            edges.add(new long[]{e, e - 1, 0});
        }
        edges.add(new long[]{0, nodes - 1, total});
        // inside(s, t) for the runs that matter: s a first sub-bucket of some admission, t a last one
        TreeSet<Long> starts = new TreeSet<>();
        for (Admission a : admissions) {
            starts.add(Math.floorDiv(a.from(), p) - base);
        }
        for (long s : starts) {
            // the weight of the admissions starting at s or later, by the sub-bucket they end in
            long[] endingIn = new long[nodes];
            for (Admission a : admissions) {
                if (Math.floorDiv(a.from(), p) - base >= s) {
                    endingIn[(int) (Math.floorDiv(a.to(), p) - base)] += a.weight();
                }
            }
            long in = 0;
            for (int t = (int) s; t < nodes; t++) {
                if (endingIn[t] > 0) {
                    in += endingIn[t];
                    edges.add(new long[]{t, s - 1, -in});
                }
            }
        }
        if (!negativeCycle(nodes, edges)) {
            return Optional.empty();
        }
        return Optional.of(new Violation(window, (base + 1) * p, (last + 1) * p, total, -1, admissions));
    }

    /** The first window whose admissions certainly inside it weigh more than the limit. */
    private static Optional<Violation> certainWindow(Window window, List<Admission> admissions, long first, long last) {
        long p = window.precisionMillis();
        long n = window.subBuckets();
        for (long e = first; e <= last; e++) {
            long from = e - n + 1;
            long counted = 0;
            List<Admission> inside = new ArrayList<>();
            for (Admission a : admissions) {
                if (Math.floorDiv(a.from(), p) >= from && Math.floorDiv(a.to(), p) <= e) {
                    counted += a.weight();
                    inside.add(a);
                }
            }
            if (counted > window.limit()) {
                return Optional.of(new Violation(window, from * p, (e + 1) * p, counted, window.limit(), inside));
            }
        }
        return Optional.empty();
    }

    /** Bellman-Ford from a source joined to every node by 0: whether some cycle weighs less than 0. */
    private static boolean negativeCycle(int nodes, List<long[]> edges) {
        long[] d = new long[nodes];
        for (int round = 0; round < nodes; round++) {
            boolean changed = false;
            for (long[] edge : edges) {
                int u = (int) edge[0];
                int v = (int) edge[1];
                if (d[u] + edge[2] < d[v]) {
                    d[v] = d[u] + edge[2];
                    changed = true;
                }
            }
            if (!changed) {
                return false;
            }
        }
        return true;
    }
}
