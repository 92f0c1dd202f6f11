package it.throttle.app;

import jakarta.enterprise.context.RequestScoped;

import java.util.Optional;

/** The plan a resource recorded for the request it serves, for the throttled beans it calls. */
@RequestScoped
public class RequestedPlan {

    private String name;

    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    public void set(String name) {
        this.name = name;
    }
}
