package it.throttle.liberty;

import it.throttle.scenarios.RawHttp;
import it.throttle.scenarios.ServerProcess;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static it.throttle.scenarios.ServerProcess.required;

/**
 * The Open Liberty server that the build created under {@code target/liberty/wlp}, run in the foreground
 * ({@code bin/server run}) with the environment a test gives it. Failing to start is an error, never a skip.
 */
final class LibertyServer implements AutoCloseable {

    /** Liberty's own messages for a server or application that did not come up. */
    private static final Pattern FAILED = Pattern.compile("(CWWKZ0002E|CWWKZ0004E|CWWKZ0012E|CWWKF0001E|CWWKF0042E|CWWKE0[0-9]{3}E)[^\\n]*");
    /** A messages.log line of severity E (error) or W (warning). */
    private static final Pattern PROBLEM = Pattern.compile("^\\[[^]]+] [0-9a-f]+ \\S+\\s+[EW] ");

    private final ServerProcess process;

    private LibertyServer(ServerProcess process) {
        this.process = process;
    }

    /**
     * Starts the server on {@code port} with {@code env} added to (and {@code THROTTLE_*} variables of this JVM
     * removed from) its environment, and waits until the application answers.
     */
    static LibertyServer start(String label, int port, Map<String, String> env) {
        return start(label, port, env, null);
    }

    /**
     * Starts the server as {@link #start(String, int, Map)} does, with the configuration of the test resource
     * {@code config} (e.g. more features) added to {@code server.xml} for this run, or none when null.
     */
    static LibertyServer start(String label, int port, Map<String, String> env, String config) {
        Path wlp = Path.of(required("liberty.wlp.dir"));
        String name = required("liberty.server");
        Path serverDir = wlp.resolve("usr/servers").resolve(name);
        addConfig(serverDir, config);
        Map<String, String> all = new HashMap<>(env);
        all.put("HTTP_PORT", Integer.toString(port));
        // a JIT and collector that start a short test run sooner
        all.put("JVM_ARGS", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1");
        return new LibertyServer(ServerProcess.start("Open Liberty (" + label + ")", List.of(wlp.resolve("bin/server").toString(), "run", name),
                wlp.getParent(), all, port, wlp.getParent().resolve("console-" + label + ".log"),
                () -> serverDir.resolve("logs/messages.log"), server -> {
                    String out = server.console();
                    Matcher failed = FAILED.matcher(out);
                    if (failed.find()) {
                        throw new AssertionError("Liberty did not start the application: " + failed.group() + "\n" + server.consoleTail());
                    }
                    return out.contains("CWWKZ0001I") && RawHttp.answers(port, "/it/open");
                }));
    }

    /**
     * Liberty merges {@code configDropins/overrides/*.xml} into {@code server.xml} at start: one file of this
     * run's additions, removed for a run without any, so that the plain runs keep the plain server.
     */
    private static void addConfig(Path serverDir, String config) {
        Path dropin = serverDir.resolve("configDropins/overrides/it-run.xml");
        try {
            if (config == null) {
                Files.deleteIfExists(dropin);
                return;
            }
            try (InputStream in = LibertyServer.class.getResourceAsStream(config)) {
                if (in == null) {
                    throw new IllegalStateException("no test resource " + config);
                }
                Files.createDirectories(dropin.getParent());
                Files.copy(in, dropin, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int port() {
        return process.port();
    }

    /** The server's current {@code logs/messages.log} (a new one each start). */
    String messages() {
        return process.log();
    }

    /** Throttle's start-up line ({@code Throttle enabled, counting in the ...}) in {@code messages.log}. */
    String startUpLine() {
        return process.startUpLine();
    }

    /** The error and warning lines of {@code messages.log}: none is expected from a healthy deployment. */
    List<String> problems() {
        return messages().lines().filter(l -> PROBLEM.matcher(l).find()).toList();
    }

    /** Stops the server: its JVM's shutdown hook stops Liberty in order; killed if it does not stop in time. */
    @Override
    public void close() {
        process.close();
    }

    static int port(String property) {
        return Integer.parseInt(required(property));
    }
}
