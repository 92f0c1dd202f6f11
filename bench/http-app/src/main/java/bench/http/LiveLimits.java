package bench.http;

import io.github.throttle.ThrottleAdmin;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * With {@code BENCH_LIVE=true}, limits changed while running are present when the app starts serving: 10,000
 * assignments of API keys no request sends (to {@code unlimited}) and an override of every bucket and plan the app
 * declares, with the limits it declares (so every call is still allowed): what live limits cost a request.
 */
@ApplicationScoped
public class LiveLimits {

    static final int ASSIGNMENTS = 10_000;

    @Inject
    ThrottleAdmin admin;

    void onStart(@Observes StartupEvent started) {
        if (!"true".equals(System.getenv("BENCH_LIVE"))) {
            return;
        }
        for (int i = 0; i < ASSIGNMENTS; i++) {
            admin.assign("key:idle-" + i, "unlimited", null);
        }
        for (ThrottleAdmin.BucketLimits b : admin.buckets()) {
            admin.override(b.bucket(), b.plan(), b.limits());
        }
    }
}
