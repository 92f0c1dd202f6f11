package io.github.throttle.testing;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test moves by hand. */
public final class MutableClock implements InstantSource {

    private final AtomicLong millis;

    public MutableClock(long millis) {
        this.millis = new AtomicLong(millis);
    }

    public MutableClock(Instant start) {
        this(start.toEpochMilli());
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }

    @Override
    public long millis() {
        return millis.get();
    }

    public void set(long m) {
        millis.set(m);
    }

    public void advance(Duration d) {
        millis.addAndGet(d.toMillis());
    }

    public void advanceMillis(long m) {
        millis.addAndGet(m);
    }
}
