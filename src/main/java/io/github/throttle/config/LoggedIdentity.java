package io.github.throttle.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How an identity is written in logs and in the messages of failures, which applications log: an API key
 * ({@code key:<value>}) as {@code key:} and the first 8 hex digits of the SHA-256 of its value, so that no log
 * shows a key and the lines about one key still read alike; every other identity as it is.
 */
public final class LoggedIdentity {

    private static final String KEY = "key:";

    private LoggedIdentity() {
    }

    /** The identity as logs write it; {@code key:<value>} as {@code key:<8 hex digits>}. */
    public static String of(String identity) {
        if (identity == null) {
            return "null";
        }
        String id = identity.trim();
        if (!id.startsWith(KEY)) {
            return id;
        }
        // the value as lists match it: "key: abc" is the key abc
        byte[] value = id.substring(KEY.length()).trim().getBytes(StandardCharsets.UTF_8);
        return KEY + HexFormat.of().formatHex(sha256(value), 0, 4);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            // every Java platform has SHA-256
            throw new IllegalStateException(e);
        }
    }
}
