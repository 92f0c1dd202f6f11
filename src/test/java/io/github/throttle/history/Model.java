package io.github.throttle.history;

import io.github.throttle.Outcome;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The contract's promise over a history: every window of every limit, at every sub-bucket start, counts at most its
 * limit. Calls allowed by the store are counted, each in every limit of its method with that limit's weight, in the
 * counter of its bucket, client and window (limits of several methods with one bucket name and one window count
 * together), at some instant of its interval of store time: from its invocation to its answer on the history's clock,
 * moved by its instance's skew. A counter counted by limits of several sizes is checked, for each size, over the
 * calls whose own limit is at most that size: each was allowed only while the window held at most its limit. A reset
 * of a counter's bucket and client starts a fresh count: the calls answered before it and those made after it are
 * checked apart, and a call made while it ran, which may be counted on either side, is left out.
 */
final class Model {

    private record Counter(String bucket, String address, long durationMillis, long precisionMillis) {
    }

    private record Counted(long limit, WindowCheck.Admission admission) {
    }

    private Model() {
    }

    /** The first window over its limit, if any. */
    static Optional<Broken> check(Scenario s, History.Record record) {
        List<History.Call> calls = record.calls();
        Map<Counter, List<Counted>> counters = new TreeMap<>(java.util.Comparator.comparing(Counter::toString));
        for (History.Call c : calls) {
            if (c.outcome() != Outcome.ALLOWED) {
                continue;
            }
            // under client time, a call timed behind the newest sub-bucket its key counts is counted there: as late as
            // the clock furthest ahead when it was answered; under the store's time, within the offset's error
            long earliest = s.clientTime() ? c.invoked() + s.skews()[c.instance()] : c.invoked() + record.storeOffset() - record.offsetError();
            long latest = s.clientTime() ? c.answered() + s.furthestAhead() : c.answered() + record.storeOffset() + record.offsetError();
            for (Scenario.Target t : s.targets()) {
                if (!t.method().equals(c.method())) {
                    continue;
                }
                for (Scenario.LimitSpec l : t.limits()) {
                    if (l.weight() == 0) {
                        continue;
                    }
                    counters.computeIfAbsent(new Counter(l.bucket(), c.address(), l.durationMillis(), l.precisionMillis()), k -> new ArrayList<>())
                            .add(new Counted(l.limit(), new WindowCheck.Admission(earliest, latest, l.weight(), c)));
                }
            }
        }
        for (Map.Entry<Counter, List<Counted>> counter : counters.entrySet()) {
            for (List<Counted> epoch : epochs(counter.getKey(), counter.getValue(), record.resets())) {
                Optional<Broken> b = check(counter.getKey(), epoch);
                if (b.isPresent()) {
                    return b;
                }
            }
        }
        return Optional.empty();
    }

    /** The calls of a counter between two resets of it. */
    private static List<List<Counted>> epochs(Counter k, List<Counted> counted, List<History.Reset> resets) {
        List<History.Reset> mine = resets.stream().filter(r -> r.bucket().equals(k.bucket()) && r.address().equals(k.address()))
                .sorted(java.util.Comparator.comparingLong(History.Reset::invoked)).toList();
        List<List<Counted>> epochs = new ArrayList<>();
        for (int i = 0; i <= mine.size(); i++) {
            epochs.add(new ArrayList<>());
        }
        for (Counted c : counted) {
            History.Call call = (History.Call) c.admission().call();
            int epoch = 0;
            boolean during = false;
            for (History.Reset r : mine) {
                if (call.invoked() > r.answered()) {
                    epoch++;
                } else if (call.answered() >= r.invoked()) {
                    during = true;
                }
            }
            if (!during) {
                epochs.get(epoch).add(c);
            }
        }
        return epochs;
    }

    private static Optional<Broken> check(Counter k, List<Counted> counted) {
        TreeSet<Long> sizes = new TreeSet<>();
        counted.forEach(c -> sizes.add(c.limit()));
        for (long size : sizes) {
            List<WindowCheck.Admission> within = new ArrayList<>();
            for (Counted c : counted) {
                if (c.limit() <= size) {
                    within.add(c.admission());
                }
            }
            Optional<WindowCheck.Violation> v = WindowCheck.check(new WindowCheck.Window(size, k.durationMillis(), k.precisionMillis()), within);
            if (v.isPresent()) {
                return Optional.of(new Broken(k.toString(), v.get()));
            }
        }
        return Optional.empty();
    }

    /** A counter whose window broke its limit. */
    record Broken(String counter, WindowCheck.Violation violation) {
        @Override
        public String toString() {
            return counter + ": " + violation;
        }
    }
}
