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
    private static final Pattern KEYS = Pattern.compile("(?m)^db\\d+:keys=(\\d+),");

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

    /** How many keys the server on {@code port} holds (in every database). */
    public static long keys(int port) {
        long n = 0;
        Matcher m = KEYS.matcher(info(port, "keyspace"));
        while (m.find()) {
            n += Long.parseLong(m.group(1));
        }
        return n;
    }

    /** The text of {@code INFO section}. */
    static String info(int port, String section) {
        String command = "*2\r\n$4\r\nINFO\r\n$" + section.length() + "\r\n" + section + "\r\n";
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(command.getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            String header = RawHttp.line(in);
            if (!header.startsWith("$")) {
                throw new IllegalStateException("INFO " + section + " answered " + header);
            }
            byte[] body = in.readNBytes(Integer.parseInt(header.substring(1)));
            return new String(body, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
