package io.github.throttle.jaxrs;

import io.github.throttle.cdi.ThrottleRuntime;
import io.github.throttle.config.ThrottleSettings;
import io.github.throttle.plan.MethodPlan;
import io.github.throttle.plan.MethodPlans;
import io.github.throttle.plan.Throttling;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.ext.Provider;

import java.lang.reflect.Method;

/**
 * Registers a {@link ThrottleFilter} on each resource method with an effective {@code @Throttle}, building
 * (and checking) its plan at deployment. Unthrottled methods get no filter and no fields.
 */
@Provider
public class ThrottleFeature implements DynamicFeature {

    private volatile Throttling throttling;

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        GrizzlyStatusLine.registerTooManyRequests();
        Class<?> type = resource.getResourceClass();
        Method method = resource.getResourceMethod();
        if (type == null || method == null || MethodPlans.annotations(type, method).length == 0) {
            return;
        }
        Throttling t = throttling();
        // plans are keyed by the class that declares the method, as the interceptor sees it
        Class<?> declaring = MethodPlans.annotations(method.getDeclaringClass(), method).length > 0 ? method.getDeclaringClass() : type;
        MethodPlan plan = t.plan(declaring, method);
        if (t.active(plan)) {
            ThrottleFilter filter = new ThrottleFilter(t, plan);
            context.register(filter, Priorities.AUTHORIZATION + 10);
            if (t.settings().headers() != ThrottleSettings.HeaderStyle.NONE) {
                // with none, allowed responses get nothing: no response filter at all
                context.register(new ThrottleFilter.Fields(filter), Priorities.AUTHORIZATION + 10);
            }
            if (QuarkusRest.PRESENT) {
                // only Quarkus REST suspends a request while the store decides
                context.register(new ThrottleFilter.Resumed(filter), Priorities.AUTHORIZATION + 11);
            }
        }
    }

    private Throttling throttling() {
        Throttling t = throttling;
        if (t == null) {
            t = CDI.current().select(ThrottleRuntime.class).get().throttling();
            throttling = t;
        }
        return t;
    }
}
