package it.throttle.app;

import jakarta.ws.rs.Path;

/** Overrides {@link LimitedBase#y()} with no annotation: the superclass method's limit applies. */
@Path("/it/sub")
public class OverridingResource extends LimitedBase {

    @Override
    public String y() {
        return "sub";
    }
}
