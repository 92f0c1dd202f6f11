package io.github.throttle.config;

import jakarta.enterprise.inject.spi.DeploymentException;

/** An annotation or configuration value Throttle cannot use; thrown at start-up, failing the deployment. */
public class InvalidThrottleException extends DeploymentException {

    private static final long serialVersionUID = 1L;

    public InvalidThrottleException(String message) {
        super(message);
    }

    public InvalidThrottleException(String message, Throwable cause) {
        super(message, cause);
    }
}
