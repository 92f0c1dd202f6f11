package it.throttle.wildfly;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * WildFly (RESTEasy) publishes JAX-RS resources for an {@link Application} subclass or a servlet mapping in
 * web.xml. With no classes listed, every {@code @Path} and {@code @Provider} of the WAR is used, including
 * Throttle's providers in WEB-INF/lib.
 */
@ApplicationPath("/")
public class RestApplication extends Application {
}
