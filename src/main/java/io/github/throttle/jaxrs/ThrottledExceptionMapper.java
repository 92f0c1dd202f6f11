package io.github.throttle.jaxrs;

import io.github.throttle.ThrottledException;
import io.github.throttle.limiter.Limiter;
import io.github.throttle.config.ThrottleSettings;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A {@link ThrottledException} from a bean called by a resource becomes the same 429 a throttled resource answers. */
@Provider
public class ThrottledExceptionMapper implements ExceptionMapper<ThrottledException> {

    private volatile ThrottleSettings.HeaderStyle style;

    @Override
    public Response toResponse(ThrottledException e) {
        ThrottleSettings.HeaderStyle s = style;
        if (s == null) {
            // settings are fixed at start-up: look them up once
            s = CDI.current().select(Limiter.class).get().settings().headers();
            style = s;
        }
        return RateLimitFields.denied(e.decision(), s);
    }
}
