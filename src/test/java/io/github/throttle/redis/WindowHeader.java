package io.github.throttle.redis;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A window's header field ({@code <tag>}) as {@code sliding-window.lua} writes it (its header comment is the
 * contract): 20 bytes, little-endian — the newest sub-bucket holding weight (a double), the weight counted in the
 * window, the weight of the newest sub-bucket and the distance from the oldest sub-bucket holding weight to the
 * newest. Read by tests that look inside Redis.
 */
record WindowHeader(long newest, long counted, long newestWeight, long oldest) {

    static final int BYTES = 20;

    static WindowHeader parse(byte[] field) {
        if (field == null || field.length != BYTES) {
            throw new IllegalArgumentException("not a window header: " + (field == null ? "null" : field.length + " bytes"));
        }
        ByteBuffer b = ByteBuffer.wrap(field).order(ByteOrder.LITTLE_ENDIAN);
        long newest = (long) b.getDouble();
        long counted = Integer.toUnsignedLong(b.getInt());
        long newestWeight = Integer.toUnsignedLong(b.getInt());
        long distance = Integer.toUnsignedLong(b.getInt());
        return new WindowHeader(newest, counted, newestWeight, newest - distance);
    }
}
