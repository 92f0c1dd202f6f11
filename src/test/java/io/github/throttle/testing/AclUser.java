package io.github.throttle.testing;

import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The least-privilege Redis user of the README, read from the README itself (its first {@code ACL SETUSER}
 * line), so that the documented command and the tested one are the same.
 */
public final class AclUser {

    /** The user name and password of the README's command. */
    public static final String NAME = "throttle";
    public static final String PASSWORD = "change-me";

    private AclUser() {
    }

    /** The first {@code ACL SETUSER} command of {@code readme}, as a user pastes it into {@code redis-cli}. */
    public static String readmeCommand(Path readme) {
        try {
            return Files.readAllLines(readme).stream().map(String::strip).filter(l -> l.startsWith("ACL SETUSER"))
                    .findFirst().orElseThrow(() -> new IllegalStateException(readme + " shows no ACL SETUSER command"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code command} (as typed into redis-cli: words separated by spaces, no quotes) through {@code admin}. */
    public static void run(RedisCommands<String, String> admin, String command) {
        List<String> words = Arrays.asList(command.strip().split("\\s+"));
        if (words.size() < 3 || !words.get(0).equals("ACL") || command.contains("\"") || command.contains("'")) {
            throw new IllegalArgumentException("not a plain ACL command: " + command);
        }
        String reply = admin.dispatch(CommandType.ACL, new StatusOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).addValues(words.subList(1, words.size())));
        if (!"OK".equals(reply)) {
            throw new IllegalStateException(command + " answered " + reply);
        }
    }

    /** {@code command} without the word {@code permission} (e.g. {@code +pexpire}): a user missing one grant. */
    public static String without(String command, String permission) {
        List<String> words = Arrays.asList(command.strip().split("\\s+"));
        if (!words.contains(permission)) {
            throw new IllegalArgumentException(command + " has no " + permission);
        }
        return words.stream().filter(w -> !w.equals(permission)).collect(Collectors.joining(" "));
    }

    /** {@code redis://throttle:change-me@127.0.0.1:<port>} (or {@code rediss://} with {@code tls}). */
    public static String uri(boolean tls, int port) {
        return (tls ? "rediss" : "redis") + "://" + NAME + ":" + PASSWORD + "@127.0.0.1:" + port;
    }
}
