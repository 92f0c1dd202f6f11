package io.github.throttle.fleet;

/**
 * One change of the shared settings, made through {@link io.github.throttle.ThrottleAdmin}: the field to set
 * (its value null: to remove), what it keeps (for the message of a failure) and what it does (for the log).
 */
record SharedChange(String field, String value, String what, String done) {
}
