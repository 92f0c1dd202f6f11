package io.github.throttle.engine;

import io.github.throttle.CallEnding;
import io.github.throttle.Decision;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static io.github.throttle.engine.StoreFixture.figures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md "Where features meet", one key, one window, one count: limits of one call landing on one key with one
 * window ({@link StoreCall#sharesCountWith}) share one count; the call adds the largest of their weights there once,
 * and each limit is checked against that count with its own weight ({@link StoreCall#bound}, {@link
 * StoreCall#countWeight}, {@link StoreCall#limitWeight}). Seats of one lease length are one count as well.
 */
public interface SharedCountContract extends StoreFixture {

    @Test
    default void twoLimitsOfOneWindowCountOnceAndTheSmallerApplies() {
        Limit five = Limit.fixed(5, MINUTE);
        Limit three = Limit.fixed(3, MINUTE);
        String key = freshKey();
        for (int i = 0; i < 3; i++) {
            Charge c = send(StoreCall.builder(SIX_PM + i, true).add(key, five, 1, 0).add(key, three, 1, 1).build());
            assertTrue(c.allowed(), "call " + i);
            assertEquals(-1, c.call().sharesCountWith(0));
            assertEquals(0, c.call().sharesCountWith(1));
            assertEquals(c.reply().taken(0), c.reply().taken(1), "one count, one sub-bucket told for both");
            figures(c.reply(), 0, 4 - i, MINUTE - i, false);
            figures(c.reply(), 1, 2 - i, MINUTE - i, false);
            // one policy name, one window: shown once, with the tighter figures
            Decision d = decision(c, five, three);
            assertEquals(1, d.quotas().size());
            assertEquals(3, d.quotas().get(0).limit());
            assertEquals(2 - i, d.quotas().get(0).remaining());
        }
        Charge denied = send(StoreCall.builder(SIX_PM + 3, true).add(key, five, 1, 0).add(key, three, 1, 1).build());
        assertFalse(denied.allowed());
        figures(denied.reply(), 0, 2, MINUTE - 3, false);
        figures(denied.reply(), 1, 0, MINUTE - 3, true);
        assertEquals(2, peek(SIX_PM + 4, key, five).remaining(), "three calls counted three, not six");
    }

    @Test
    default void theLargestWeightIsRecordedOnceAndEachLimitIsCheckedWithItsOwn() {
        Limit ten = Limit.fixed(10, MINUTE);
        Limit four = Limit.fixed(4, MINUTE);
        String key = freshKey();
        StoreCall call = StoreCall.builder(SIX_PM, true).add(key, ten, 3, 0).add(key, four, 1, 1).build();
        assertEquals(3, call.countWeight(1));
        assertEquals(1, call.limitWeight(1));
        assertEquals(6, call.bound(1), "the limit of 4, raised by what the count records beyond the limit's own weight");
        // 0 + 3 <= 10 and 0 + 1 <= 4: 3 counted
        Charge first = send(call);
        assertTrue(first.allowed());
        figures(first.reply(), 0, 7, MINUTE, false);
        figures(first.reply(), 1, 3, MINUTE, false);
        Decision shown = decision(first, ten, four);
        assertEquals(1, shown.quotas().size(), "one policy name, one window: shown once");
        assertEquals(1, shown.quotas().get(0).remaining(), "the smaller limit's: the store's figure less what the count holds beyond its own weight");
        // 3 + 1 <= 4: allowed by the smaller limit with its own weight, though 3 more are counted
        Charge second = send(StoreCall.builder(SIX_PM + 1, true).add(key, ten, 3, 0).add(key, four, 1, 1).build());
        assertTrue(second.allowed());
        figures(second.reply(), 0, 4, MINUTE - 1, false);
        figures(second.reply(), 1, 0, MINUTE - 1, false);
        assertEquals(4, peek(SIX_PM + 2, key, ten).remaining());
        // 6 + 1 > 4
        Charge third = send(StoreCall.builder(SIX_PM + 2, true).add(key, ten, 3, 0).add(key, four, 1, 1).build());
        assertFalse(third.allowed());
        figures(third.reply(), 0, 4, MINUTE - 2, false);
        figures(third.reply(), 1, 0, MINUTE - 2, true);
        assertEquals(4, peek(SIX_PM + 3, key, ten).remaining(), "a denied call records nothing");
    }

    @Test
    default void aSharedCountIsGivenBackOnceWithTheWeightItRecorded() {
        Limit ten = Limit.fixed(10, MINUTE);
        Limit four = Limit.fixed(4, MINUTE);
        String key = freshKey();
        assertTrue(call(SIX_PM, 2, new String[] {key}, ten).allowed());
        Charge both = send(StoreCall.builder(SIX_PM + 1, true).add(key, ten, 3, 0, true).add(key, four, 1, 1, true).build());
        assertTrue(both.allowed());
        assertEquals(1, Took.of(both.call(), both.reply()).only(EnumSet.of(CallEnding.Part.WEIGHT)).call().pairCount(),
                "given back through the first pair holding the count");
        assertEquals(5, peek(SIX_PM + 2, key, ten).remaining());
        giveBack(both);
        assertEquals(8, peek(SIX_PM + 3, key, ten).remaining(), "the 3 recorded come back, once");
        // weight comes back only if every limit sharing the count gives it back
        Charge one = send(StoreCall.builder(SIX_PM + 4, true).add(key, ten, 3, 0, true).add(key, four, 1, 1).build());
        assertTrue(one.allowed());
        assertTrue(Took.of(one.call(), one.reply()).only(EnumSet.of(CallEnding.Part.WEIGHT)).isEmpty());
        assertEquals(5, peek(SIX_PM + 5, key, ten).remaining());
    }

    @Test
    default void aSharedCountIsReservedOnce() {
        Limit three = Limit.fixed(3, SECOND);
        Limit two = Limit.fixed(2, SECOND);
        String key = freshKey();
        long b0 = two.subBucket(SIX_PM);
        for (int i = 0; i < 2; i++) {
            assertTrue(send(StoreCall.builder(SIX_PM + i, true).add(key, three, 1, 0).add(key, two, 1, 1).build()).allowed());
        }
        StoreReply reserved = send(StoreCall.builder(SIX_PM + 100, true).maxWait(SECOND)
                .add(key, three, 1, 0).add(key, two, 1, 1).build()).reply();
        assertTrue(reserved.allowed());
        assertEquals(900, reserved.delayMillis());
        assertEquals(new Taken.Reserved(b0 + 1), reserved.taken(0));
        assertEquals(new Taken.Reserved(b0 + 1), reserved.taken(1), "one count, one reservation told for both");
        figures(reserved, 0, 2, 900, false);
        figures(reserved, 1, 1, 900, false);
        assertEquals(2, peek(SIX_PM + SECOND, key, three).remaining(), "reserved once: 1 of 3 counted at 18:00:01");
    }

    @Test
    default void twoInFlightLimitsOfOneLeaseHoldOneSeat() {
        Limit three = Limit.inFlight(3, MINUTE, null);
        Limit one = Limit.inFlight(1, MINUTE, "single");
        String key = freshKey();
        Charge first = send(StoreCall.builder(SIX_PM, true).add(key, three, 1, 0).add(key, one, 1, 1).build());
        assertTrue(first.allowed());
        assertEquals(first.reply().taken(0), first.reply().taken(1), "one seat, one lease told for both");
        figures(first.reply(), 0, 2, MINUTE, false);
        figures(first.reply(), 1, 0, MINUTE, false);
        assertEquals(2, peek(SIX_PM + 1, key, three).remaining(), "one seat held, not two");
        Charge second = send(StoreCall.builder(SIX_PM + 2, true).add(key, three, 1, 0).add(key, one, 1, 1).build());
        assertFalse(second.allowed());
        figures(second.reply(), 0, 2, MINUTE - 2, false);
        figures(second.reply(), 1, 0, MINUTE - 2, true);
        release(first);
        assertEquals(3, peek(SIX_PM + 3, key, three).remaining());
        assertTrue(send(StoreCall.builder(SIX_PM + 4, true).add(key, three, 1, 0).add(key, one, 1, 1).build()).allowed());
    }
}
