package io.github.throttle.engine;

import io.github.throttle.Decision;
import io.github.throttle.Decisions;

import java.util.ArrayList;
import java.util.List;

/**
 * Folds a store's reply into the caller's decision: one set of figures per limit, over the identities it was
 * checked for, each policy named once.
 */
final class ReplyFolding {

    private ReplyFolding() {
    }

    /**
     * Builds the decision: per limit, the figures of its most constrained identity. A violated identity wins
     * (the longest wait among violated ones); otherwise the least remaining weight, and on a tie the longer
     * wait.
     */
    static Decision decision(StoreReply r, StoreCall call, LimitList limits) {
        Decision.Quota[] folded = new Decision.Quota[limits.size()];
        for (int p = 0; p < call.pairCount(); p++) {
            int i = call.limitIndex(p);
            Limit l = limits.get(i);
            // the store figured against the pair's bound: the limit's own remaining is that much less
            long remaining = Math.max(0, r.remaining(p) - (call.bound(p) - l.limit()));
            Decision.Quota q = new Decision.Quota(l.policy(), l.limit(), l.durationMillis(), remaining,
                    r.waitMillis(p), r.violated(p), l.inFlight());
            folded[i] = folded[i] == null ? q : tighter(folded[i], q);
        }
        boolean each = limits.eachNamedOnce();
        for (int i = 0; each && i < folded.length; i++) {
            each = folded[i] != null;
        }
        List<Decision.Quota> quotas;
        if (each) {
            // every limit a policy of its own, each with figures: shown as they are
            quotas = List.of(folded);
        } else {
            quotas = new ArrayList<>(limits.size());
            List<Limit> shown = new ArrayList<>(limits.size());
            for (int i = 0; i < folded.length; i++) {
                if (folded[i] != null) {
                    addNamedOnce(quotas, shown, folded[i], limits.get(i));
                }
            }
        }
        Decision d = Decisions.of(r.allowed(), quotas, limits.policies());
        return r.delayMillis() > 0 ? Decisions.waiting(d, r.delayMillis()) : d;
    }

    /**
     * Adds the figures of limit {@code l}, or, when a limit of the same name counting the same window is there
     * already (two limits that met on one count, such as a limit and an override of it), keeps the tighter of the
     * two: each policy is named once.
     */
    private static void addNamedOnce(List<Decision.Quota> quotas, List<Limit> shown, Decision.Quota q, Limit l) {
        for (int j = 0; j < quotas.size(); j++) {
            Decision.Quota other = quotas.get(j);
            if (other.policy().equals(q.policy()) && shown.get(j).sameWindow(l)) {
                boolean tighter;
                if (q.violated() != other.violated()) {
                    tighter = q.violated();
                } else if (q.violated() || q.remaining() == other.remaining()) {
                    // the one that keeps the caller out longer
                    tighter = q.resetMillis() > other.resetMillis();
                } else {
                    tighter = q.remaining() < other.remaining();
                }
                if (tighter) {
                    quotas.set(j, q);
                    shown.set(j, l);
                }
                return;
            }
        }
        quotas.add(q);
        shown.add(l);
    }

    /** The figures of one limit over two identities. */
    private static Decision.Quota tighter(Decision.Quota a, Decision.Quota b) {
        long remaining = Math.min(a.remaining(), b.remaining());
        long wait;
        if (a.violated() || b.violated()) {
            wait = Math.max(a.violated() ? a.resetMillis() : 0, b.violated() ? b.resetMillis() : 0);
        } else if (b.remaining() != a.remaining()) {
            wait = b.remaining() < a.remaining() ? b.resetMillis() : a.resetMillis();
        } else {
            wait = Math.max(a.resetMillis(), b.resetMillis());
        }
        return new Decision.Quota(a.policy(), a.limit(), a.windowMillis(), remaining, wait, a.violated() || b.violated(), a.inFlight());
    }
}
