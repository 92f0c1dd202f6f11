package it.throttle.quarkus;

import io.github.throttle.testing.RedisProcess;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A real redis-server for the application under test, which a test may pause, flush, kill or restart; shared by the
 * suites of both Quarkus lines. Where test classes name it with {@code @WithTestResource(value = RedisResource.class,
 * scope = TestResourceScope.MATCHING_RESOURCES)}, those that also name the same profile share one server and one start
 * of the application, so a test that pauses or kills the server has it serving again before it ends. The LTS suite
 * restricts it to each class instead: none of its classes on Redis shares its settings with another.
 */
public class RedisResource implements QuarkusTestResourceLifecycleManager {

    /** The server of the application under test, for its tests. */
    public static volatile RedisProcess redis;

    /** The server this instance started: it stops that one, whichever {@link #redis} names by then. */
    private RedisProcess started;

    @Override
    public Map<String, String> start() {
        started = RedisProcess.start();
        redis = started;
        return Map.of("throttle.redis.uri", started.uri());
    }

    @Override
    public void stop() {
        if (started != null) {
            started.close();
        }
    }

    /** One command over a raw connection (RESP); the first line of the reply, without its type byte. */
    public static String command(String... args) {
        return exchange(false, args);
    }

    /** {@code CLIENT LIST}: one line per client connected to the server. */
    static String clients() {
        return exchange(true, "CLIENT", "LIST");
    }

    /** Whether the server holds a client's command (a client blocked, here by {@code CLIENT PAUSE}). */
    static boolean holdsAClient() {
        return clients().lines().anyMatch(l -> l.matches(".* flags=\\w*b\\w* .*"));
    }

    /** {@code INFO <section>}: the server's figures of that section, one per line. */
    static String info(String section) {
        return exchange(true, "INFO", section);
    }

    /** Sends one command; returns the first line of the reply, or with {@code bulk} the bulk string that follows it. */
    private static String exchange(boolean bulk, String... args) {
        try (Socket s = new Socket("127.0.0.1", redis.port())) {
            s.setSoTimeout(30_000);
            StringBuilder b = new StringBuilder("*" + args.length + "\r\n");
            for (String a : args) {
                b.append('$').append(a.length()).append("\r\n").append(a).append("\r\n");
            }
            OutputStream out = s.getOutputStream();
            out.write(b.toString().getBytes(StandardCharsets.UTF_8));
            InputStream in = s.getInputStream();
            String line = line(in);
            if (!bulk) {
                return line.substring(1);
            }
            if (!line.startsWith("$")) {
                throw new IllegalStateException(String.join(" ", args) + " answered " + line);
            }
            return new String(in.readNBytes(Integer.parseInt(line.substring(1))), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One line of the reply, without CR LF. */
    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != -1 && c != '\r') {
            line.append((char) c);
        }
        in.read();
        return line.toString();
    }
}
