package io.github.throttle.limiter;

import io.github.throttle.Caller;
import io.github.throttle.ThrottlePlan;
import io.github.throttle.config.PlanLists;
import org.eclipse.microprofile.config.Config;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * Which plan a call is on: the first {@code throttle.plans.*} list that names the caller ({@code blocked},
 * {@code unlimited}, then the plans named in annotations, by name), else the {@link ThrottlePlan} bean's answer
 * if it names a reserved or declared plan, else none. The lists of a plan are read when the first target that
 * names it is built (start-up builds every target).
 */
public final class Plans {

    private final Config config;
    private final String keyHeader;
    private final Optional<ThrottlePlan> bean;
    private final Set<String> declared = new ConcurrentSkipListSet<>();
    private volatile PlanLists lists;

    Plans(Config config, String keyHeader, Optional<ThrottlePlan> bean) {
        this.config = config;
        this.keyHeader = keyHeader;
        this.bean = bean;
        this.lists = PlanLists.read(config, Set.of(), keyHeader);
    }

    /** Adds the plans a target names; their lists are read (and checked) now. */
    synchronized void declare(Iterable<String> plans) {
        boolean added = false;
        for (String p : plans) {
            added |= declared.add(p);
        }
        if (added) {
            lists = PlanLists.read(config, declared, keyHeader);
        }
    }

    /** The caller's plan, or null for none. */
    public String of(Caller caller) {
        String listed = lists.match(caller);
        if (listed != null || bean.isEmpty()) {
            return listed;
        }
        String named = bean.get().plan(caller).orElse(null);
        if (named == null || !known(named)) {
            return null;
        }
        return named;
    }

    /** Whether {@code plan} is reserved or named by an annotation: a plan callers can be put on. */
    public boolean known(String plan) {
        return plan.equals(PlanLists.BLOCKED) || plan.equals(PlanLists.UNLIMITED) || declared.contains(plan);
    }

    /** Whether some calls may be refused as {@code blocked}: a list names blocked callers, or a bean decides plans. */
    boolean mayBlock() {
        return bean.isPresent() || lists.names(PlanLists.BLOCKED);
    }
}
