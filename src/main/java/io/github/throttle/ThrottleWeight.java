package io.github.throttle;

/**
 * Gives the weight of one call, for limits whose cost depends on the request (a batch of {@code n} items
 * costs {@code n}). Named in {@link Throttle#weigher()}, it replaces {@link Throttle#weight()}. Resolved like a
 * {@link ThrottleKey}: the CDI bean of that class if there is one, else an instance made through its public
 * no-argument constructor. Called once per call, on the request's thread, before anything is counted: it
 * must not block.
 *
 * <p>Weight 0 makes the call free: allowed and not counted. A weight above a limit of the call refuses it
 * ({@code 400} over HTTP, {@link IllegalArgumentException} from a bean); nothing is counted. An exception
 * thrown here fails the call as the application's own exception would, and nothing is counted.
 */
public interface ThrottleWeight {

    /**
     * The weight of this call.
     *
     * @param caller what is known about the call, e.g. {@link Caller#queryParameter(String)}
     * @return the weight, 0 or more
     */
    long weigh(Caller caller);
}
