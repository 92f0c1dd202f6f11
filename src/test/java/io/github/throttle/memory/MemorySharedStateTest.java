package io.github.throttle.memory;

import io.github.throttle.engine.SharedState;
import io.github.throttle.engine.SharedStateContract;
import io.github.throttle.testing.MutableClock;

/** The embedded store's shared state: this instance's alone, by the same rules. */
class MemorySharedStateTest extends SharedStateContract {

    private final MemoryStore store = new MemoryStore(new MutableClock(1_790_000_000_000L));

    @Override
    protected SharedState shared() {
        return store;
    }
}
