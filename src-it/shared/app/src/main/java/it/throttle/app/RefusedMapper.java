package it.throttle.app;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Answers {@link InFlightResource.Refused} with a 409 of the application's own: the exception mapper path. */
@Provider
public class RefusedMapper implements ExceptionMapper<InFlightResource.Refused> {

    @Override
    public Response toResponse(InFlightResource.Refused e) {
        return Response.status(Response.Status.CONFLICT).entity(e.getMessage()).build();
    }
}
