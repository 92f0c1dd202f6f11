package io.github.throttle;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The answer and the way a call ends are two things: the decision says what happened, its ending undoes it once. */
class CallEndingTest {

    private static final Decision ALLOWED = Decision.of(true, List.of(new Decision.Quota("1m", 10, 60_000, 9, 60_000, false)));

    @Test
    void eachPartComesBackOnceWhoeverAsks() {
        List<String> asked = new ArrayList<>();
        Decision d = Decisions.endingWith(ALLOWED, CallEnding.of(parts -> {
            asked.add(parts.stream().map(p -> p.name().toLowerCase(java.util.Locale.ROOT)).sorted().reduce("", String::concat));
            return CompletableFuture.completedFuture(null);
        }));
        d.ending().giveBack();
        d.ending().giveBack();
        d.ending().release();
        d.ending().release();
        assertEquals(List.of("weight", "seats"), asked);
        assertEquals(ALLOWED, d, "how a call ends is not part of the answer");
    }

    @Test
    void undoingAsksForWhatDidNotComeBackYetOnce() {
        List<String> asked = new ArrayList<>();
        Decision d = Decisions.endingWith(ALLOWED, CallEnding.of(parts -> {
            asked.add(parts.stream().map(p -> p.name().toLowerCase(java.util.Locale.ROOT)).sorted().reduce("", String::concat));
            return CompletableFuture.completedFuture(null);
        }));
        d.ending().release();
        d.ending().undo();
        d.ending().undo();
        d.ending().giveBack();
        assertEquals(List.of("seats", "restweight"), asked);
    }

    @Test
    @SuppressWarnings("deprecation")
    void theDeprecatedWaysStillEndTheCallThroughItsEnding() {
        List<String> asked = new ArrayList<>();
        Decision d = Decisions.endingWith(ALLOWED, CallEnding.of(parts -> {
            asked.add(parts.stream().map(p -> p.name().toLowerCase(java.util.Locale.ROOT)).sorted().reduce("", String::concat));
            return CompletableFuture.completedFuture(null);
        }));
        d.release();
        d.ending().release();
        d.giveBack();
        d.giveBack();
        assertEquals(List.of("seats", "weight"), asked);
    }

    @Test
    void aDecisionThatRecordedNothingEndsWithNothing() {
        assertSame(CallEnding.NONE, Decision.unmetered().ending());
        assertTrue(CallEnding.NONE.giveBack().toCompletableFuture().isDone());
    }

    @Test
    void everyAnswerHasOneOutcome() {
        assertEquals(Outcome.ALLOWED, ALLOWED.outcome());
        assertEquals(Outcome.FAILURE_ALLOWED, Decision.unmetered().outcome());
        assertEquals(Outcome.FAILURE_DENIED, Decision.unavailable(1000).outcome());
        assertEquals(Outcome.BLOCKED, Decision.blocked().outcome());
        assertEquals(Outcome.LOCAL_ALLOWED, Decisions.locally(ALLOWED).outcome());
        assertTrue(Decisions.locally(ALLOWED).isLocal());
        assertEquals("denied", Outcome.OVERWEIGHT.tag(), "an overweight call counts as denied");
    }
}
