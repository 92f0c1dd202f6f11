package io.github.throttle.engine;

/**
 * A failure of one store call alone: the store answered, and the calls around it stand. The call gets the failure
 * policy; no failure episode starts, so no other caller is affected — unless the cause is one only an operator can
 * end ({@link Store#severity} {@code ERROR}: a missing permission, a full store), which every call will meet.
 */
public class CallFailure extends IllegalStateException {

    public CallFailure(String message) {
        super(message);
    }
}
