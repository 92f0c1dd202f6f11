package io.github.throttle.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** External programs: any command, redis-benchmark, wrk, and a Java of this JVM's own. */
final class Processes {

    private Processes() {
    }

    /** The {@code java} of the running JVM. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs {@code cmd} to its end; its output (standard error included). Fails if it exits with other than 0. */
    static String run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out;
            try (InputStream in = p.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            int rc = p.waitFor();
            if (rc != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " exited with " + rc + ":\n" + out);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + cmd.get(0) + " (is it on PATH?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Requests per second of {@code redis-benchmark} sending {@code command} from {@code clients} connections
     * ({@code __rand_int__} in an argument becomes a random number below {@code randomKeys}, when positive).
     */
    static double redisBenchmark(int port, int clients, long requests, int randomKeys, List<String> command) {
        return redisBenchmark(port, clients, 1, requests, randomKeys, command);
    }

    /** As above, each client keeping {@code pipeline} requests in flight ({@code -P}). */
    static double redisBenchmark(int port, int clients, int pipeline, long requests, int randomKeys, List<String> command) {
        List<String> cmd = new ArrayList<>(List.of("redis-benchmark", "-h", "127.0.0.1", "-p", Integer.toString(port),
                "-c", Integer.toString(clients), "-P", Integer.toString(pipeline), "-n", Long.toString(requests), "--csv"));
        if (randomKeys > 0) {
            cmd.add("-r");
            cmd.add(Integer.toString(randomKeys));
        }
        cmd.addAll(command);
        String out = run(cmd);
        for (String line : out.split("\r?\n")) {
            // the test name may hold commas (JSON arguments): count the seven figures from the end
            String[] f = line.split("\",\"");
            if (f.length >= 8 && !line.startsWith("\"test\"")) {
                try {
                    return Double.parseDouble(f[f.length - 7].replace("\"", ""));
                } catch (NumberFormatException ignored) {
                    // not the figures line
                }
            }
        }
        throw new IllegalStateException("no figures in redis-benchmark output:\n" + out);
    }

    /** @param errors socket errors and answers other than 2xx/3xx; {@code non2xx} the latter alone; {@code output} what wrk and its script wrote */
    record WrkResult(double requestsPerSecond, double p99Millis, long errors, long requests, long non2xx, double p50Millis, String output) {
    }

    /** A latency figure of wrk's ({@code 1.23ms}) in milliseconds. */
    private static double millis(Matcher m) {
        double v = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "us" -> v / 1000;
            case "s" -> v * 1000;
            default -> v;
        };
    }

    private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern P99 = Pattern.compile("\\s99%\\s+([0-9.]+)(us|ms|s)");
    private static final Pattern P50 = Pattern.compile("\\s50%\\s+([0-9.]+)(us|ms|s)");
    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in");
    private static final Pattern NON2XX = Pattern.compile("Non-2xx or 3xx responses:\\s+(\\d+)");
    private static final Pattern SOCKET = Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");

    static WrkResult wrk(String url, int connections, double seconds, String script) {
        int threads = Math.min(2, connections);
        String out = run(List.of("wrk", "-t" + threads, "-c" + connections, "-d" + Math.round(seconds) + "s",
                "--latency", "-s", script, url));
        Matcher r = RPS.matcher(out);
        Matcher p = P99.matcher(out);
        if (!r.find() || !p.find()) {
            throw new IllegalStateException("no figures in wrk output:\n" + out);
        }
        double ms = millis(p);
        Matcher median = P50.matcher(out);
        double p50 = median.find() ? millis(median) : Double.NaN;
        Matcher n = NON2XX.matcher(out);
        long non2xx = n.find() ? Long.parseLong(n.group(1)) : 0;
        long errors = non2xx;
        Matcher s = SOCKET.matcher(out);
        if (s.find()) {
            for (int i = 1; i <= 4; i++) {
                errors += Long.parseLong(s.group(i));
            }
        }
        Matcher q = REQUESTS.matcher(out);
        return new WrkResult(Double.parseDouble(r.group(1)), ms, errors, q.find() ? Long.parseLong(q.group(1)) : 0, non2xx, p50, out);
    }

    /**
     * One wrk per URL, all at once, {@code connections} split among them (64 over three: 22, 21, 21): their
     * results in the URLs' order.
     */
    static List<WrkResult> wrk(List<String> urls, int connections, double seconds, String script) {
        ExecutorService threads = Executors.newFixedThreadPool(urls.size());
        try {
            List<CompletableFuture<WrkResult>> runs = new ArrayList<>();
            for (int i = 0; i < urls.size(); i++) {
                String url = urls.get(i);
                int c = connections / urls.size() + (i < connections % urls.size() ? 1 : 0);
                runs.add(CompletableFuture.supplyAsync(() -> wrk(url, c, seconds, script), threads));
            }
            List<WrkResult> results = new ArrayList<>();
            for (CompletableFuture<WrkResult> run : runs) {
                results.add(run.join());
            }
            return results;
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        } finally {
            threads.shutdown();
        }
    }
}
