package io.github.throttle.jaxrs;

import io.github.throttle.ThrottledException;
import io.github.throttle.cdi.ThrottleRuntime;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A {@link ThrottledException} from a bean called by a resource becomes the same 429 a throttled resource answers. */
@Provider
public class ThrottledExceptionMapper implements ExceptionMapper<ThrottledException> {

    @Override
    public Response toResponse(ThrottledException e) {
        var style = CDI.current().select(ThrottleRuntime.class).get().throttling().settings().headers();
        return RateLimitFields.denied(e.decision(), style);
    }
}
