package io.github.throttle.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The Quarkus app of {@code bench/http-app} in a JVM of its own on a free port, with one store:
 * {@code memory}, {@code memory-nofields} (the memory store with {@code throttle.headers=none}),
 * {@code memory-nometrics} (with {@code throttle.metrics=none}) or {@code redis}; {@code memory-live} and {@code redis-live}
 * with limits changed while running present ({@code BENCH_LIVE}: 10,000 assignments, every bucket and plan
 * overridden); {@code redis-acks0} and {@code redis-acks1} with {@code throttle.redis.replica-acks} 0 and 1;
 * {@code redis-leases-off} and {@code redis-leases-auto} with {@code throttle.leases} off and auto, and
 * {@code throttle.on-store-failure=deny} (no call is allowed without being counted). Its output goes to {@code http-app-<store>-<port>.log}. It is stopped when closed, when it fails to
 * start, and when the harness exits.
 */
final class HttpApp implements AutoCloseable {

    /** How long the app may take to answer its first request: long enough for a slow, busy machine. */
    static final int START_SECONDS = 180;

    /** Where the app answers, ending in {@code /}. */
    final String base;
    private final Process process;
    private final Path log;
    private final Thread stopOnExit;

    /** Starts the app and waits until it answers. */
    HttpApp(String jar, String store, String redisUri) throws Exception {
        int port = RedisServer.freePort();
        this.log = Path.of("http-app-" + store + "-" + port + ".log");
        ProcessBuilder pb = new ProcessBuilder(Processes.java(), "-Xmx512m", "-jar", jar).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("BENCH_HTTP_PORT", Integer.toString(port));
        if (store.startsWith("redis")) {
            pb.environment().put("THROTTLE_REDIS_URI", redisUri);
        } else {
            pb.environment().remove("THROTTLE_REDIS_URI");
        }
        if (store.endsWith("-live")) {
            pb.environment().put("BENCH_LIVE", "true");
            // the 10,000 assignments are each logged at INFO
            pb.environment().put("QUARKUS_LOG_CATEGORY__IO_GITHUB_THROTTLE__LEVEL", "WARN");
        } else {
            pb.environment().remove("BENCH_LIVE");
        }
        if (store.startsWith("redis-acks")) {
            pb.environment().put("THROTTLE_REDIS_REPLICA_ACKS", store.substring("redis-acks".length()));
        } else {
            pb.environment().remove("THROTTLE_REDIS_REPLICA_ACKS");
        }
        if (store.startsWith("redis-leases-")) {
            pb.environment().put("THROTTLE_LEASES", store.substring("redis-leases-".length()));
            pb.environment().put("THROTTLE_ON_STORE_FAILURE", "deny");
        } else {
            pb.environment().remove("THROTTLE_LEASES");
            pb.environment().remove("THROTTLE_ON_STORE_FAILURE");
        }
        if (store.equals("memory-nofields")) {
            pb.environment().put("THROTTLE_HEADERS", "none");
        } else {
            pb.environment().remove("THROTTLE_HEADERS");
        }
        // every store but memory-nometrics counts its calls in the app's Micrometer registry
        pb.environment().put("THROTTLE_METRICS", store.equals("memory-nometrics") ? "none" : "auto");
        this.process = pb.start();
        this.stopOnExit = new Thread(this::stop);
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        this.base = "http://127.0.0.1:" + port + "/";
        try {
            waitUp(base + "throttled");
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    long pid() {
        return process.pid();
    }

    private void waitUp(String url) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long until = System.currentTimeMillis() + START_SECONDS * 1000L;
        while (System.currentTimeMillis() < until && process.isAlive()) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).header("X-API-Key", "probe").build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(process.isAlive() ? "no answer at " + url + " within " + START_SECONDS + " s (" + log + ")"
                : "the app exited with " + process.exitValue() + " before answering (" + log + ")");
    }

    /** Why the app cannot be measured now, or null while it runs. */
    String gone() {
        return process.isAlive() ? null : "the app exited with " + process.exitValue() + " (" + log + ")";
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook stops it
        }
    }

    private void stop() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** A failure in one line, for a table. */
    static String reason(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        return m.lines().findFirst().orElse(m).replace('|', '/');
    }
}
