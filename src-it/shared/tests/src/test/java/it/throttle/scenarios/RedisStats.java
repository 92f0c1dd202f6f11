package it.throttle.scenarios;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a redis-server says it has done and holds: its {@code INFO} sections, read over a plain socket. */
public final class RedisStats {

    private static final Pattern CALLS = Pattern.compile("(?m)^cmdstat_(\\w+):calls=(\\d+),");

    private RedisStats() {
    }

    /** How many script calls ({@code EVALSHA} and {@code EVAL}) the server on {@code port} has run. */
    public static long scriptCalls(int port) {
        long n = 0;
        Matcher m = CALLS.matcher(info(port, "commandstats"));
        while (m.find()) {
            if (m.group(1).equalsIgnoreCase("evalsha") || m.group(1).equalsIgnoreCase("eval")) {
                n += Long.parseLong(m.group(2));
            }
        }
        return n;
    }

    /** How many keys the server on {@code port} holds whose name matches {@code pattern} ({@code KEYS}). */
    public static long keys(int port, String pattern) {
        String header = exchange(port, "KEYS", pattern, in -> RawHttp.line(in));
        if (!header.startsWith("*")) {
            throw new IllegalStateException("KEYS " + pattern + " answered " + header);
        }
        return Long.parseLong(header.substring(1));
    }

    /** The text of {@code INFO section}. */
    static String info(int port, String section) {
        return exchange(port, "INFO", section, in -> {
            String header = RawHttp.line(in);
            if (!header.startsWith("$")) {
                throw new IllegalStateException("INFO " + section + " answered " + header);
            }
            return new String(in.readNBytes(Integer.parseInt(header.substring(1))), StandardCharsets.US_ASCII);
        });
    }

    /** Sends {@code command argument} (ASCII) and reads what {@code reply} reads of the answer. */
    private static <T> T exchange(int port, String command, String argument, Reply<T> reply) {
        String request = "*2\r\n$" + command.length() + "\r\n" + command + "\r\n$" + argument.length() + "\r\n" + argument + "\r\n";
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return reply.read(s.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private interface Reply<T> {
        T read(InputStream in) throws IOException;
    }
}
