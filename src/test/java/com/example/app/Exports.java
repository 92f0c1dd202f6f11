package com.example.app;

import io.github.throttle.Throttle;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.temporal.ChronoUnit;

/**
 * API-first code: the limit is declared on the interface, the bean implements it without annotations. CDI does not
 * carry interceptor bindings from an interface method to its implementation.
 */
public interface Exports {

    @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES)
    String export();

    /** The bean. */
    @ApplicationScoped
    class Bean implements Exports {
        @Override
        public String export() {
            return "exported";
        }
    }

    /** A base class whose limit a subclass overrides without annotations. */
    abstract class Base {
        @Throttle(limit = 2, duration = 10, unit = ChronoUnit.MINUTES)
        public String report() {
            return "base";
        }
    }

    /** The bean overriding it. */
    @ApplicationScoped
    class Overriding extends Base {
        @Override
        public String report() {
            return "overridden";
        }
    }

    /** The same, with the class carrying a limit of its own: the interceptor reaches the method, and the more specific limit applies. */
    @ApplicationScoped
    @Throttle(limit = 100, duration = 10, unit = ChronoUnit.MINUTES)
    class ClassLimited implements Exports {
        @Override
        public String export() {
            return "exported";
        }
    }
}
