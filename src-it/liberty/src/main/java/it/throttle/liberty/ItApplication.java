package it.throttle.liberty;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Every resource and provider of the WAR (and of its WEB-INF/lib jars, Throttle's included) at the root. */
@ApplicationPath("/")
public class ItApplication extends Application {
}
