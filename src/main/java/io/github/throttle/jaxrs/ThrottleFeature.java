package io.github.throttle.jaxrs;

import io.github.throttle.CallDecision;
import io.github.throttle.config.TargetConfig;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.limiter.Target;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.ext.Provider;

import java.lang.reflect.Method;

/**
 * Registers a {@link ThrottleFilter} on each resource method with an effective {@code @Throttle} (its own, or one
 * on a method it overrides or implements, or on its class: {@link TargetConfig#annotations}), building
 * (and checking) its target at deployment. Unthrottled methods get no filter and no fields.
 */
@Provider
public class ThrottleFeature implements DynamicFeature {

    private volatile Limiter limiter;
    private volatile CallDecision current;
    private volatile ThrottledMethods methods;

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        GrizzlyStatusLine.registerTooManyRequests();
        Class<?> type = resource.getResourceClass();
        Method method = resource.getResourceMethod();
        if (type == null || method == null || TargetConfig.annotations(type, method).length == 0) {
            return;
        }
        Limiter l = limiter();
        // the class that serves the call names the target (bucket, configuration keys, metrics), wherever in its
        // hierarchy the limit is declared: two classes implementing one interface count apart unless a name joins them
        Target target = l.target(type, method);
        if (l.active(target)) {
            target.servedBy(type);
            ThrottleFilter filter = new ThrottleFilter(l, target, current);
            methods.add(method, filter);
            context.register(filter, Priorities.AUTHORIZATION + 10);
            if (target.givesBack()) {
                context.register(new ThrottleFilter.GiveBack(), Priorities.AUTHORIZATION + 10);
            }
            if (target.holdsSeats()) {
                context.register(new ThrottleFilter.Release(), Priorities.AUTHORIZATION + 10);
            }
            if (l.settings().headers() != ThrottleSettings.HeaderStyle.NONE) {
                // with none, allowed responses get nothing: no response filter at all
                context.register(new ThrottleFilter.Fields(l.settings().headers()), Priorities.AUTHORIZATION + 10);
            }
            if (QuarkusRest.PRESENT) {
                // where this method's own filter suspends the request (on an event loop the name-bound filters do
                // not reach: an inherited @Throttle), the decision is applied when it resumes
                context.register(new ThrottleFilter.Resumed(), Priorities.AUTHORIZATION + 11);
            }
        }
    }

    private Limiter limiter() {
        Limiter l = limiter;
        if (l == null) {
            // JAX-RS makes this provider, not CDI: it looks the application's limiter up once
            l = CDI.current().select(Limiter.class).get();
            var holder = CDI.current().select(CallDecision.class);
            current = holder.isResolvable() ? holder.get() : null;
            methods = CDI.current().select(ThrottledMethods.class).get();
            limiter = l;
        }
        return l;
    }
}
