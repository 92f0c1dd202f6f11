package io.github.throttle.engine;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Optional;

/**
 * Builds the store key of a (bucket, identity): {@code <prefix>:<bucket>:<identity>}.
 *
 * <p>Each part is kept as it is when short and made of plain characters, else replaced by {@code ~} and the
 * base64url SHA-256 of its UTF-8 bytes. Plain parts never contain {@code ~}, the bucket part never contains
 * {@code :}, so the encoding is injective (up to SHA-256 collisions); no key contains {@code {} or
 * {@code }} (a caller cannot pick a Redis Cluster hash tag), CR, LF or spaces, and every key is at most
 * {@link #MAX_KEY_BYTES} bytes.
 */
public final class KeyCodec {

    public static final int MAX_KEY_BYTES = 200;
    public static final int MAX_PREFIX = 40;
    private static final int MAX_PLAIN = 64;

    private final String prefix;

    /** @throws IllegalArgumentException when {@link #checkPrefix} refuses the prefix */
    public KeyCodec(String prefix) {
        checkPrefix(prefix).ifPresent(why -> {
            throw new IllegalArgumentException(why + ", was '" + prefix + "'");
        });
        this.prefix = prefix + ":";
    }

    /** Why {@code prefix} cannot start keys, if it cannot. */
    public static Optional<String> checkPrefix(String prefix) {
        if (prefix.isEmpty() || prefix.length() > MAX_PREFIX || !plain(prefix, false)) {
            return Optional.of("the key prefix must be 1 to " + MAX_PREFIX + " characters among A-Z a-z 0-9 . _ - # $ @");
        }
        return Optional.empty();
    }

    /**
     * The key of settings shared by every instance, say assignments: {@code <prefix>::<name>}. Its bucket part is
     * empty, which no bucket's is, so it never is the key of a (bucket, identity).
     */
    public String sharedKey(String name) {
        return prefix + ":" + name;
    }

    /**
     * The key of something shared by every instance about one bucket, say its denials: {@code <prefix>::<name>:<bucket>}
     * with the bucket part encoded as in {@link #bucketHead}.
     */
    public String sharedKey(String name, String bucket) {
        return sharedKey(name) + ":" + part(bucket);
    }

    /**
     * Whether {@code key} holds the counts of a (bucket, identity) under this prefix, not settings shared by every
     * instance.
     */
    public boolean isCounts(String key) {
        return key.startsWith(prefix) && key.length() > prefix.length() && key.charAt(prefix.length()) != ':';
    }

    /** The Redis {@code SCAN} pattern of every key that {@link #isCounts holds counts}. */
    public String countsPattern() {
        // of the glob's special characters, a prefix may hold only *
        return prefix.replace("*", "\\*") + "[^:]*";
    }

    /**
     * The head of every key of a bucket, {@code <prefix>:<bucket>:} with the bucket part encoded; compute once
     * per bucket, so that a call joins only two strings.
     */
    public String bucketHead(String bucket) {
        return prefix + part(bucket) + ":";
    }

    private static String part(String bucket) {
        return plain(bucket, false) && bucket.length() <= MAX_PLAIN ? bucket : hashed(bucket);
    }

    /** The key of an identity in a bucket whose head is {@code bucketHead}. */
    public String key(String bucketHead, String identity) {
        return bucketHead.concat(identity.length() <= MAX_PLAIN && plain(identity, true) ? identity : hashed(identity));
    }

    private static boolean plain(String s, boolean colonAllowed) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-' || c == '#' || c == '$' || c == '@' || c == '*'
                    || c == '/' || c == '=' || c == '+' || (colonAllowed && c == ':');
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static String hashed(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return "~" + Base64.getUrlEncoder().withoutPadding().encodeToString(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
