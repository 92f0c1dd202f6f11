package io.github.throttle.redis;

import javax.net.ssl.SSLException;
import java.lang.System.Logger.Level;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Redis failure means, in one log line without credentials. Lettuce wraps the cause (a refused TLS
 * handshake inside a connection failure inside a completion): the line names the innermost one, and for the
 * failures only an operator can fix (a missing ACL permission, a full Redis, a refused password, TLS) says
 * what to change; those are logged at {@code ERROR}.
 */
final class RedisFailures {

    /** Where the operator finds the ACL, TLS and memory settings. */
    static final String GUIDE = "docs/production-redis.md";

    /** Redis 7.2 on: {@code NOPERM User u has no permissions to run the 'pexpire' command}; 6 and 7.0 at top level. */
    private static final Pattern NAMED_COMMAND = Pattern.compile("permissions to run the '([^']+)' command");
    /** Redis 7.0 inside a script: {@code ERR The user executing the script can't run this command ... on @user_script:316.} */
    private static final Pattern SCRIPT_LINE = Pattern.compile("@user_script:\\s*(\\d+)");
    private static final Pattern CALL = Pattern.compile("(?:redis\\.p?)?call\\('([A-Za-z]+)'");
    /** A call that failed inside the script names the command it was sending ({@code sliding-window.lua}, Reply). */
    private static final Pattern SENT = Pattern.compile("; command: ([A-Za-z]+)");

    private RedisFailures() {
    }

    static String describe(Throwable failure) {
        Throwable root = root(failure);
        String m = String.valueOf(root.getMessage());
        String detail = switch (kind(failure)) {
            case PERMISSION -> "NOPERM: the Redis user lacks a permission Throttle needs: " + permission(m) + "; see " + GUIDE;
            case OUT_OF_MEMORY -> "Redis is full (maxmemory) and evicts none of Throttle's keys: set maxmemory-policy "
                    + "volatile-ttl or raise maxmemory; see " + GUIDE;
            case AUTHENTICATION -> "Redis refused the user name or password of throttle.redis.uri";
            case TLS -> tls(failure);
            case OTHER -> failure == root ? null : "caused by " + root.getClass().getSimpleName();
        };
        String own = failure.getClass().getSimpleName() + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
        String line = detail == null ? own : detail + " [" + (failure == root ? own : own + "; " + m) + "]";
        return RedisUris.redact(line);
    }

    static Level severity(Throwable failure) {
        return kind(failure) == Kind.OTHER ? Level.WARNING : Level.ERROR;
    }

    private enum Kind { PERMISSION, OUT_OF_MEMORY, AUTHENTICATION, TLS, OTHER }

    private static Kind kind(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException || t instanceof CertificateException) {
                return Kind.TLS;
            }
            String m = t.getMessage() == null ? "" : t.getMessage();
            // Redis 6 and 7.0 wrap what a script's command was refused in an ERR reply, and so does Valkey 8:
            // ERR ACL failure in script: User u has no permissions to run the 'pexpire' command
            if (m.startsWith("NOPERM") || m.contains("The user executing the script can't")
                    || m.contains("ACL failure in script")) {
                return Kind.PERMISSION;
            }
            if (m.contains("OOM command not allowed")) {
                return Kind.OUT_OF_MEMORY;
            }
            if (m.startsWith("WRONGPASS") || m.startsWith("NOAUTH")) {
                return Kind.AUTHENTICATION;
            }
        }
        return Kind.OTHER;
    }

    /** Names the command refused, from Redis's message or else from the script line it names; or says it was a key. */
    private static String permission(String message) {
        Matcher named = NAMED_COMMAND.matcher(message);
        if (named.find()) {
            return "it may not run " + named.group(1).toUpperCase(Locale.ROOT)
                    + (message.contains("@user_script") ? " (called by the script)" : "");
        }
        if (message.contains("key")) {
            return "it may not use Throttle's keys (grant ~<throttle.key-prefix>:*)";
        }
        Matcher sent = SENT.matcher(message);
        if (sent.find()) {
            return "it may not run " + sent.group(1).toUpperCase(Locale.ROOT) + " (called by the script)";
        }
        Matcher line = SCRIPT_LINE.matcher(message);
        if (line.find()) {
            String[] lines = SlidingWindowScript.TEXT.split("\n", -1);
            int n = Integer.parseInt(line.group(1));
            Matcher call = n >= 1 && n <= lines.length ? CALL.matcher(lines[n - 1]) : null;
            return call != null && call.find()
                    ? "it may not run " + call.group(1).toUpperCase(Locale.ROOT) + " (called by the script at line " + n + ")"
                    : "it may not run a command the script calls at line " + n;
        }
        return "a command or key was refused";
    }

    private static String tls(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CertificateExpiredException) {
                return "TLS: the Redis server's certificate has expired";
            }
        }
        String m = String.valueOf(root(failure).getMessage());
        if (m.contains("PKIX path") || m.contains("unable to find valid certification path")) {
            return "TLS: the Redis server's certificate is not signed by a CA in this JVM's trust store "
                    + "(javax.net.ssl.trustStore); see " + GUIDE;
        }
        if (m.contains("subject alternative") || m.contains("No name matching")) {
            return "TLS: the Redis server's certificate does not name the host in throttle.redis.uri";
        }
        return "TLS with the Redis server failed";
    }

    private static Throwable root(Throwable failure) {
        Throwable t = failure;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }
}
