package it.throttle.app;

import io.github.throttle.Caller;
import io.github.throttle.ThrottlePlan;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Optional;

/**
 * The application's plan of a caller no {@code throttle.plans.*} list names: over HTTP the {@code X-Plan} header
 * (as a gateway that has checked the caller's subscription might set it); a bean method has no headers, so there
 * the plan the resource recorded for the request. Any name is passed on: a name no annotation uses means the
 * default limits.
 */
@ApplicationScoped
public class HeaderPlan implements ThrottlePlan {

    @Inject
    RequestedPlan requested;

    @Override
    public Optional<String> plan(Caller caller) {
        Optional<String> header = caller.header("X-Plan");
        return header.isPresent() || caller.clientAddress().isPresent() ? header : requested.name();
    }
}
