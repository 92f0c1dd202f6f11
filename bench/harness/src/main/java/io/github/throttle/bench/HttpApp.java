package io.github.throttle.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

/**
 * The Quarkus app of {@code bench/http-app} in a JVM of its own on a free port, with one store:
 * {@code memory}, {@code memory-nofields} (the memory store with {@code throttle.headers=none}),
 * {@code memory-nometrics} (with {@code throttle.metrics=none}) or {@code redis}; {@code memory-live} and {@code redis-live}
 * with limits changed while running present ({@code BENCH_LIVE}: 10,000 assignments, every bucket and plan
 * overridden). Its output goes to {@code http-app-<store>.log}.
 */
final class HttpApp implements AutoCloseable {

    /** Where the app answers, ending in {@code /}. */
    final String base;
    private final Process process;

    /** Starts the app and waits until it answers. */
    HttpApp(String jar, String store, String redisUri) throws Exception {
        int port = RedisServer.freePort();
        ProcessBuilder pb = new ProcessBuilder(Processes.java(), "-Xmx512m", "-jar", jar).redirectErrorStream(true)
                .redirectOutput(Path.of("http-app-" + store + "-" + port + ".log").toFile());
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
        if (store.equals("memory-nofields")) {
            pb.environment().put("THROTTLE_HEADERS", "none");
        } else {
            pb.environment().remove("THROTTLE_HEADERS");
        }
        // every store but memory-nometrics counts its calls in the app's Micrometer registry
        pb.environment().put("THROTTLE_METRICS", store.equals("memory-nometrics") ? "none" : "auto");
        this.process = pb.start();
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
        long until = System.currentTimeMillis() + 60_000;
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
        throw new IllegalStateException("the HTTP app did not answer at " + url);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }
}
