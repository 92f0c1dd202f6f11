package io.github.throttle.redis;

import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Notices a primary that does not hold what the last one held: after every (re)connect the store reads
 * {@code INFO replication} from the primary it reached, and compares its replication id with the ones it saw.
 * <ul>
 *   <li>A promoted replica has a new replication id, and the id of the primary it followed as its second one
 *       ({@code master_replid2}): a promotion, of which the decisions the old primary had not sent it are lost.</li>
 *   <li>A known primary's address with a new id, not continuing the old one: a restart without persistence, or a
 *       primary replaced; everything counted there is gone.</li>
 * </ul>
 * Either is logged once at WARNING naming the old and the new primary, and counted
 * ({@link ReplicationEvents#promoted}). A primary with fewer replicas than {@code throttle.redis.replica-acks}
 * is logged at WARNING each time it is reached: every call then gets the failure policy.
 */
final class PrimaryWatch {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");
    /** The replication id of a server that never followed another. */
    private static final String NO_ID = "0000000000000000000000000000000000000000";

    private final int replicaAcks;
    private final ReplicationEvents events;
    /** The address of each primary seen, by its replication id; and each address's latest id. Guarded by {@code this}. */
    private final Map<String, String> addressById = new HashMap<>();
    private final Map<String, String> idByAddress = new HashMap<>();
    /** Standalone and Sentinel: the id of the one primary the store counts on, else null. */
    private String current;
    private final boolean onePrimary;
    /** The last primary logged for too few replicas, and when. Guarded by {@code this}. */
    private String lastShort;
    private long lastShortAt;

    /** @param onePrimary whether the store counts on one primary at a time (not a Cluster's several) */
    PrimaryWatch(int replicaAcks, ReplicationEvents events, boolean onePrimary) {
        this.replicaAcks = replicaAcks;
        this.events = events;
        this.onePrimary = onePrimary;
    }

    /** Reads {@code info}, the reply of {@code INFO replication} from the server at {@code address}. */
    void reached(String address, String info) {
        Map<String, String> fields = fields(info);
        if (!"master".equals(fields.get("role"))) {
            return;
        }
        String id = fields.getOrDefault("master_replid", "");
        String followed = fields.getOrDefault("master_replid2", NO_ID);
        int replicas = Integer.parseInt(fields.getOrDefault("connected_slaves", "0"));
        if (replicaAcks > replicas && shortOnce(address, replicas)) {
            LOG.log(Level.WARNING, "Throttle: the Redis primary at " + address + " has " + replicas + " replica(s) connected, and "
                    + replicaAcks + " must acknowledge each decision (throttle.redis.replica-acks): every call gets the failure"
                    + " policy until enough are");
        }
        String change;
        synchronized (this) {
            change = change(address, id, followed);
            addressById.put(id, address);
            idByAddress.put(address, id);
            if (onePrimary) {
                current = id;
            }
        }
        if (change != null) {
            events.promoted();
            LOG.log(Level.WARNING, "Throttle: " + change);
        }
    }

    /**
     * Whether to log that the primary at {@code address} has too few replicas: not again for the same address and
     * count within a few seconds (the store's connections reconnect together).
     */
    private synchronized boolean shortOnce(String address, int replicas) {
        String what = address + "/" + replicas;
        long now = System.nanoTime();
        if (what.equals(lastShort) && now - lastShortAt < TimeUnit.SECONDS.toNanos(5)) {
            return false;
        }
        lastShort = what;
        lastShortAt = now;
        return true;
    }

    /** What changed, or null; under the lock. */
    private String change(String address, String id, String followed) {
        if (addressById.containsKey(id)) {
            return null;
        }
        if (addressById.containsKey(followed)) {
            return "Redis promoted the replica at " + address + " (replication id " + id + ") in place of the primary at "
                    + addressById.get(followed) + " (" + followed + "): the decisions that primary had not sent it are lost"
                    + (replicaAcks == 0 ? "" : ", unless " + replicaAcks + " replica(s) acknowledged them and it is one of those");
        }
        String old = onePrimary ? current : idByAddress.get(address);
        if (old == null) {
            // the first primary this store reached (in a cluster: the first at this address)
            return null;
        }
        return "the Redis primary at " + address + " has a new replication id (" + id + ", was " + old + " at "
                + addressById.get(old) + "): it holds nothing of what was counted before (a restart without persistence,"
                + " or another server)";
    }

    private static Map<String, String> fields(String info) {
        Map<String, String> fields = new HashMap<>();
        for (String line : info.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return fields;
    }
}
