package it.throttle.payara;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * Payara (Jersey) publishes JAX-RS resources only for an {@link Application} subclass or a servlet mapping
 * in web.xml. With no classes listed, every {@code @Path} and {@code @Provider} of the WAR is used,
 * including Throttle's providers in WEB-INF/lib.
 */
@ApplicationPath("/")
public class RestApplication extends Application {
}
