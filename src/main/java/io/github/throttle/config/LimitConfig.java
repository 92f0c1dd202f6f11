package io.github.throttle.config;

import io.github.throttle.Throttle;
import io.github.throttle.ThrottleKey;
import io.github.throttle.ThrottleWeight;
import io.github.throttle.engine.Limit;

import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The effective configuration of one {@link Throttle} of a target: shaped like the annotation, each member
 * as declared or as overridden (see {@link TargetConfig}). {@link #validate()} holds every rule a limit's
 * configuration must follow; a broken rule fails start-up naming the method and the member.
 *
 * @param target {@code Class#method}, for messages and as the default bucket name
 * @param index  position among the target's repeated annotations (from 0)
 * @param count  how many limits the target declares
 */
public record LimitConfig(String target, int index, int count, long limit, long duration, long precision,
                          ChronoUnit unit, long weight, String name, List<Class<? extends ThrottleKey>> key,
                          String plan, Class<? extends ThrottleWeight> weigher, boolean skipSuccessful,
                          boolean inFlight, long maxWaitMillis) {

    /** Plan names no annotation may use: the default limits' tag and the two reserved plans. */

    /** The units a window may be given in: the exact ones from milliseconds to weeks. */
    public static final List<ChronoUnit> UNITS = List.of(ChronoUnit.MILLIS, ChronoUnit.SECONDS, ChronoUnit.MINUTES,
            ChronoUnit.HOURS, ChronoUnit.HALF_DAYS, ChronoUnit.DAYS, ChronoUnit.WEEKS);

    /** @throws InvalidThrottleException naming the method and the member at fault */
    public void validate() {
        toLimit().checkWeight(weight).ifPresent(broken -> {
            throw invalid(broken.member(), broken.value(), broken.why());
        });
        if (!plan.isEmpty() && !isPlanName(plan)) {
            throw invalid("plan", '"' + plan + '"', "must be lowercase letters, digits and '-'");
        }
        if (maxWaitMillis < 0) {
            throw invalid("maxWaitMillis", maxWaitMillis, "must be 0 (never wait) or positive");
        }
        if (inFlight && skipSuccessful) {
            throw invalid("skipSuccessful", true, "has no meaning on an in-flight limit: its seat is released when the call "
                    + "ends, whatever the outcome");
        }
        if (PlanLists.RESERVED.contains(plan)) {
            throw invalid("plan", '"' + plan + '"', "is reserved (" + String.join(", ", PlanLists.RESERVED)
                    + "): unlimited and blocked callers are named in throttle.plans.unlimited and throttle.plans.blocked");
        }
    }

    /** Whether {@code name} is a plan name: lowercase letters, digits and {@code -}. */
    public static boolean isPlanName(String name) {
        return !name.isEmpty() && name.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
    }

    /**
     * This limit with other figures, as an override gives them ({@link io.github.throttle.ThrottleAdmin#override}):
     * the same bucket, identities, weight, plan and name; a rate limit.
     */
    public LimitConfig withRate(Limit rate) {
        return new LimitConfig(target, index, count, rate.limit(), rate.durationMillis(), rate.precisionMillis(), ChronoUnit.MILLIS,
                weight, name, key, plan, weigher, skipSuccessful, false, maxWaitMillis);
    }

    /** Whether a weigher gives this limit's weight (else {@link #weight()}). */
    public boolean weighed() {
        return weigher != ThrottleWeight.class;
    }

    /** The limit this configuration declares. @throws InvalidThrottleException as {@link #validate()} */
    public Limit toLimit() {
        if (!UNITS.contains(unit)) {
            throw invalid("unit", unit, "must be one of " + UNITS);
        }
        if (precision < 0) {
            throw invalid("precision", precision, "must be 0 (a fixed window) or positive");
        }
        long durationMillis = millis("duration", duration);
        if (inFlight) {
            if (precision != 0) {
                throw invalid("precision", inUnit(precision), "must be left unset on an in-flight limit: its duration is a "
                        + "lease, not a window");
            }
            Limit.checkInFlight(limit, durationMillis).ifPresent(broken -> {
                throw invalid(broken.member(), broken.member().equals("limit") ? limit : inUnit(duration), broken.why());
            });
            String lease = "in-flight-" + Limit.windowName(durationMillis);
            return Limit.inFlight(limit, durationMillis, name.isEmpty() ? lease : name + "-" + lease);
        }
        long precisionMillis = precision == 0 ? durationMillis : millis("precision", precision);
        Limit.check(limit, durationMillis, precisionMillis).ifPresent(broken -> {
            // report the member as the user wrote it, in its unit
            String member = broken.member();
            Object value = member.equals("limit") ? limit : inUnit(member.equals("duration") ? duration : precision);
            throw invalid(member, value, broken.why());
        });
        String window = Limit.windowName(durationMillis);
        return Limit.window(limit, durationMillis, precisionMillis, name.isEmpty() ? window : name + "-" + window);
    }

    private String inUnit(long amount) {
        return unit == ChronoUnit.MILLIS ? Long.toString(amount) : amount + " " + unit;
    }

    /** The bucket whose counts this limit shares: {@link #name()}, else the target. */
    public String bucket() {
        return name.isEmpty() ? target : name;
    }

    private long millis(String member, long amount) {
        try {
            // a week is seven days here, as a day is 24 hours (Duration.of refuses weeks as estimated)
            return Math.multiplyExact(amount, unit.getDuration().toMillis());
        } catch (ArithmeticException e) {
            throw invalid(member, amount + " " + unit, "is too long");
        }
    }

    public InvalidThrottleException invalid(String member, Object value, String why) {
        return new InvalidThrottleException("Invalid @Throttle on " + where() + ": " + member + " = " + value + " " + why);
    }

    /** The target, and which of its limits when it has several. */
    public String where() {
        return target + (count > 1 ? " (limit " + index + ")" : "");
    }
}
