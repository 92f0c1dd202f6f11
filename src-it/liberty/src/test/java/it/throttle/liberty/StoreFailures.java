package it.throttle.liberty;

import java.util.regex.Pattern;

/** The warning lines of messages.log that a run killing its Redis on purpose (and starting it again empty) expects. */
final class StoreFailures {

    /** Throttle's own, once per outage: {@code Throttle: Redis at ... failed (...); calls are ... until it answers again}. */
    private static final Pattern THROTTLE = Pattern.compile(" W Throttle: Redis at redis://\\S+ failed \\(.*\\); calls are "
            + "(denied|allowed without counting) until it answers again$");

    /**
     * Throttle's, when the Redis it reconnects to was started again without persistence (a new replication id that
     * continues nothing): {@code Throttle: the Redis primary at ... has a new replication id (...)}.
     */
    private static final Pattern RESTARTED = Pattern.compile(" W Throttle: the Redis primary at 127\\.0\\.0\\.1:\\d+ has a new "
            + "replication id \\(\\w+, was \\w+ at 127\\.0\\.0\\.1:\\d+\\): it holds nothing of what was counted before");

    /** Lettuce's, while it tries to reconnect to the dead server. */
    private static final Pattern LETTUCE = Pattern.compile("io\\.lettuce\\.core\\.protocol\\.ConnectionWatchdog\\s+W Cannot reconnect "
            + "to \\[127\\.0\\.0\\.1/<unresolved>:\\d+]: Connection refused: /127\\.0\\.0\\.1:\\d+$");

    /** Liberty's, each time the readiness check {@code throttle} answers DOWN (with on-store-failure=deny). */
    private static final Pattern DOWN = Pattern.compile(" W CWMMH0052W: .* reported a DOWN status for the health check, throttle, "
            + "and with the data Optional\\[\\{store=redis, reachable=false}]\\.$");

    private StoreFailures() {
    }

    /** The lines of a run that denies calls while Redis is dead: the ones above, and the readiness check DOWN. */
    static boolean expectedWhenDenying(String line) {
        return expected(line) || DOWN.matcher(line).find();
    }

    static boolean expected(String line) {
        return THROTTLE.matcher(line).find() || LETTUCE.matcher(line).find() || RESTARTED.matcher(line).find();
    }
}
