package io.github.throttle.engine;

import org.junit.jupiter.api.Test;

import static io.github.throttle.engine.StoreFixture.figures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every kind in one call (DESIGN.md "Where features meet"): rate windows, a count shared by two limits, seats, and
 * weight 0 on any of them, over two identities; the call is decided as one, and what it took comes back as one.
 */
public interface MixedCallContract extends StoreFixture {

    /**
     * Per identity: 2 a second, 5 a minute by 10 s with a limit of 4 counting the same window at weight 2, and one
     * seat; every pair may be given back.
     */
    private StoreCall everyKind(long at, String[] keys, Limit perSecond, Limit perMinute, Limit heavier, Limit seat) {
        StoreCall.Builder b = StoreCall.builder(at, true);
        for (String key : keys) {
            b.add(key, perSecond, 1, 0, true).add(key, perMinute, 1, 1, true).add(key, heavier, 2, 2, true).add(key, seat, 1, 3, true);
        }
        return b.build();
    }

    @Test
    default void aCallOfEveryKindOverTwoIdentitiesIsAllowedOnlyWhenEveryPairAllowsAndGivesEverythingBack() {
        Limit perSecond = Limit.fixed(2, SECOND);
        Limit perMinute = Limit.of(5, MINUTE, 10 * SECOND);
        Limit heavier = Limit.of(4, MINUTE, 10 * SECOND);
        Limit seat = Limit.inFlight(1, MINUTE, null);
        String[] keys = freshKeys(2);
        Charge first = send(everyKind(SIX_PM, keys, perSecond, perMinute, heavier, seat));
        assertTrue(first.allowed());
        for (int k = 0; k < 2; k++) {
            int q = 4 * k;
            assertEquals(q + 1, first.call().sharesCountWith(q + 2), "the two minute limits share one count");
            figures(first.reply(), q, 1, SECOND, false);
            // one count of 2 (the larger weight): the 5 a minute has 3 left, the store tells it against its bound 6
            figures(first.reply(), q + 1, 4, MINUTE, false);
            figures(first.reply(), q + 2, 2, MINUTE, false);
            figures(first.reply(), q + 3, 0, MINUTE, false);
            assertEquals(new Taken.Counted(perSecond.subBucket(SIX_PM)), first.reply().taken(q));
            assertEquals(new Taken.Counted(perMinute.subBucket(SIX_PM)), first.reply().taken(q + 1));
            assertEquals(first.reply().taken(q + 1), first.reply().taken(q + 2));
            assertNotEquals(new Taken.Lease(0), first.reply().taken(q + 3), "a seat taken is told its lease");
        }
        // the seats are held: denied, and nothing recorded anywhere
        Charge busy = send(everyKind(SIX_PM + 100, keys, perSecond, perMinute, heavier, seat));
        assertFalse(busy.allowed());
        for (int k = 0; k < 2; k++) {
            int q = 4 * k;
            figures(busy.reply(), q, 1, 900, false);
            figures(busy.reply(), q + 1, 4, MINUTE - 100, false);
            figures(busy.reply(), q + 2, 2, MINUTE - 100, false);
            figures(busy.reply(), q + 3, 0, MINUTE - 100, true);
        }
        release(first);
        Charge second = send(everyKind(SIX_PM + 200, keys, perSecond, perMinute, heavier, seat));
        assertTrue(second.allowed());
        figures(second.reply(), 4, 0, 800, false);
        figures(second.reply(), 5, 2, MINUTE - 200, false);
        figures(second.reply(), 6, 0, MINUTE - 200, false);
        // its weight and its seats come back, the first call's weight stays
        giveBack(second);
        for (String key : keys) {
            assertEquals(1, peek(SIX_PM + 300, key, perSecond).remaining());
            assertEquals(3, peek(SIX_PM + 300, key, perMinute).remaining());
            assertEquals(1, peek(SIX_PM + 300, key, seat).remaining());
        }
        assertTrue(send(everyKind(SIX_PM + 400, keys, perSecond, perMinute, heavier, seat)).allowed());
    }

    @Test
    default void weightZeroOnARateLimitAndOnSeatsTakesNothingAndTheCallIsDecidedOnItsOtherLimits() {
        Limit perSecond = Limit.fixed(1, SECOND);
        Limit seat = Limit.inFlight(1, MINUTE, null);
        Limit perMinute = Limit.fixed(5, MINUTE);
        String key = freshKey();
        assertTrue(charge(SIX_PM, 1, key, perSecond).allowed());
        Charge held = charge(SIX_PM, 1, key, seat);
        assertTrue(held.allowed());
        Charge free = send(StoreCall.builder(SIX_PM + 1, true)
                .add(key, perSecond, 0, 0, true).add(key, seat, 0, 1).add(key, perMinute, 1, 2, true).build());
        assertTrue(free.allowed(), () -> "full, but charged nothing: " + free.reply());
        figures(free.reply(), 0, 0, 999, false);
        figures(free.reply(), 1, 0, MINUTE - 1, false);
        figures(free.reply(), 2, 4, MINUTE - 1, false);
        assertEquals(new Taken.Lease(0), free.reply().taken(1), "weight 0 takes no seat: lease 0");
        // ending it releases nothing: the seat held stays held, the second stays spent
        release(free);
        giveBack(free);
        assertFalse(charge(SIX_PM + 2, 1, key, seat).allowed());
        assertFalse(call(SIX_PM + 3, key, perSecond).allowed());
        assertEquals(5, peek(SIX_PM + 4, key, perMinute).remaining(), "the 1 it recorded came back");
        release(held);
        assertTrue(charge(SIX_PM + 5, 1, key, seat).allowed());
    }
}
