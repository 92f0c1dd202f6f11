package io.github.throttle.redis;

import io.github.throttle.engine.StoreCall;
import io.lettuce.core.cluster.SlotHash;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link StoreCall} split by Redis Cluster hash slot: one call per slot, so that no script ever sees
 * keys of two slots ({@code CROSSSLOT}). In each part, {@link StoreCall#limitIndex(int)} is the index of the
 * pair in the whole call, so figures can be put back in place.
 */
final class SlotGroups {

    private final StoreCall whole;
    private final List<StoreCall> parts;

    private SlotGroups(StoreCall whole, List<StoreCall> parts) {
        this.whole = whole;
        this.parts = parts;
    }

    static SlotGroups of(StoreCall call) {
        Map<Integer, StoreCall.Builder> bySlot = new LinkedHashMap<>();
        for (int k = 0; k < call.keyCount(); k++) {
            String key = call.key(k);
            StoreCall.Builder b = bySlot.computeIfAbsent(SlotHash.getSlot(key),
                    s -> StoreCall.builder(call.nowMillis(), call.record()).leaseId(call.leaseId()));
            for (int p = call.firstPair(k); p < call.firstPair(k + 1); p++) {
                b.add(key, call.limit(p), call.limitWeight(p), p);
            }
        }
        List<StoreCall> parts = new ArrayList<>(bySlot.size());
        for (StoreCall.Builder b : bySlot.values()) {
            parts.add(b.build());
        }
        return new SlotGroups(call, parts);
    }

    StoreCall whole() {
        return whole;
    }

    List<StoreCall> parts() {
        return parts;
    }

    int size() {
        return parts.size();
    }
}
