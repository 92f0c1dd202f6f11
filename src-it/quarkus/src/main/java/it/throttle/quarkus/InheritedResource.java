package it.throttle.quarkus;

import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/**
 * A limit the resource class inherits from its superclass: Quarkus REST's name binding does not see it, so the
 * method's own filter decides it, on the event loop for this non-blocking method.
 */
@Path("/quarkus/inherited")
public class InheritedResource extends InheritedLimit {

    @GET
    @NonBlocking
    public String get() {
        return "inherited on " + Thread.currentThread().getName();
    }
}
