package it.throttle.wildfly;

import it.throttle.scenarios.Observability;
import it.throttle.scenarios.RawHttp;
import it.throttle.scenarios.ServerProcess;
import it.throttle.servlet.ServletRuntime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import static it.throttle.scenarios.AdminClient.OPERATOR;
import static it.throttle.scenarios.ServerProcess.required;

/**
 * WildFly ({@code bin/standalone.sh -c standalone-microprofile.xml}) of the unpacked distribution, with a server
 * directory of its own per run ({@code target/wildfly/<run>}: configuration, deployments, log) and the
 * application WAR deployed as {@code ROOT.war} by the deployment scanner, bound to 127.0.0.1 on ports moved by a
 * free port offset. The configuration gets WildFly's Micrometer subsystem with a Prometheus registry served on
 * the management port at {@link #PROMETHEUS}; the admin API's users go to the ApplicationRealm's properties files.
 */
public final class WildFlyRuntime implements ServletRuntime {

    /** Where the Micrometer subsystem's Prometheus registry is served, on the management port. */
    static final String PROMETHEUS = "/prometheus";

    private static final String CONFIG = "standalone-microprofile.xml";
    private static final int HTTP = 8080;
    private static final int MANAGEMENT = 9990;
    /** The ports of standalone-microprofile.xml's socket bindings, each moved by the offset. */
    private static final List<Integer> PORTS = List.of(HTTP, 8443, MANAGEMENT, 9993, 8009, 4712, 4713);

    @Override
    public ServerProcess start(String name, Map<String, String> env, Map<String, String> adminUsers) {
        Path home = Path.of(required("wildfly.home"));
        Path war = Path.of(required("wildfly.war"));
        Path base = Path.of(required("wildfly.work")).resolve(name);
        try {
            delete(base);
            Path configuration = base.resolve("configuration");
            copy(home.resolve("standalone/configuration"), configuration);
            addMicrometer(configuration.resolve(CONFIG));
            addUsers(configuration, adminUsers);
            Files.createDirectories(base.resolve("deployments"));
            Files.copy(war, base.resolve("deployments/ROOT.war"));
            int offset = freeOffset();
            List<String> command = List.of(home.resolve("bin/standalone.sh").toString(), "-c", CONFIG,
                    "-Djboss.server.base.dir=" + base,
                    "-Djboss.socket.binding.port-offset=" + offset,
                    // loopback only: nothing outside this machine reaches the test server
                    "-Djboss.bind.address=127.0.0.1",
                    "-Djboss.bind.address.management=127.0.0.1",
                    // the one line of configuration Throttle's OpenAPI responses need
                    "-Dmp.openapi.filter=io.github.throttle.openapi.ThrottleOpenApiFilter");
            Map<String, String> all = new HashMap<>(env);
            all.put("JAVA_HOME", System.getProperty("java.home"));
            all.put("LAUNCH_JBOSS_IN_BACKGROUND", "1");
            all.put("JAVA_OPTS", null);
            // standalone.conf's own options, with a JIT and collector that start a short test run sooner
            all.put("JBOSS_JAVA_SIZING", "-Xms64m -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
            all.put("GC_LOG", "false");
            Path deployments = base.resolve("deployments");
            int port = HTTP + offset;
            return ServerProcess.start("WildFly (" + name + ")", command, base, all, port, base.resolve("console.log"),
                    () -> base.resolve("log/server.log"), server -> {
                        // the scanner's marker of the WAR: .failed, or .deployed and then the application answers
                        if (Files.exists(deployments.resolve("ROOT.war.failed"))) {
                            throw new IllegalStateException("WildFly failed to deploy the WAR:\n" + server.consoleTail());
                        }
                        return Files.exists(deployments.resolve("ROOT.war.deployed")) && RawHttp.answers(port, "/it/open");
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Health and the Micrometer subsystem's Prometheus registry, both on the management port: Throttle's meters
     * go to the subsystem's registry with no configuration.
     */
    @Override
    public Observability observed(ServerProcess server) {
        return Observability.onManagementPort(server.port(), server.port() - HTTP + MANAGEMENT, PROMETHEUS);
    }

    @Override
    public String metrics() {
        return "micrometer";
    }

    /** WildFly builds the document once, at deployment: Throttle's filter runs then, outside any request. */
    @Override
    public String openApiJson() {
        return "/openapi?format=JSON";
    }

    /** Adds the Micrometer extension and subsystem, with a Prometheus registry, to the server configuration. */
    private static void addMicrometer(Path config) throws IOException {
        String xml = Files.readString(config);
        String extensions = "<extensions>";
        String profile = "<profile>";
        if (!xml.contains(extensions) || !xml.contains(profile)) {
            throw new IllegalStateException("no <extensions> or <profile> in " + config);
        }
        xml = xml.replace(extensions, extensions + "\n        <extension module=\"org.wildfly.extension.micrometer\"/>")
                .replace(profile, profile + "\n        <subsystem xmlns=\"urn:wildfly:micrometer:community:2.0\">"
                        + "<prometheus-registry context=\"" + PROMETHEUS + "\" security-enabled=\"false\"/></subsystem>");
        Files.writeString(config, xml);
    }

    /**
     * The users of the ApplicationRealm (web applications' default security domain): each with its password's
     * digest {@code HEX(MD5(user:ApplicationRealm:password))}, the operator in the group, hence role, throttle-admin.
     */
    private static void addUsers(Path configuration, Map<String, String> users) throws IOException {
        StringBuilder passwords = new StringBuilder();
        StringBuilder groups = new StringBuilder();
        for (Map.Entry<String, String> user : users.entrySet()) {
            passwords.append('\n').append(user.getKey()).append('=')
                    .append(md5(user.getKey() + ":ApplicationRealm:" + user.getValue()));
            groups.append('\n').append(user.getKey()).append('=').append(OPERATOR.equals(user.getKey()) ? "throttle-admin" : "users");
        }
        Files.writeString(configuration.resolve("application-users.properties"), passwords + "\n", StandardOpenOption.APPEND);
        Files.writeString(configuration.resolve("application-roles.properties"), groups + "\n", StandardOpenOption.APPEND);
    }

    private static String md5(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A port offset that moves every port of the configuration onto a free one. */
    private static int freeOffset() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int offset = ThreadLocalRandom.current().nextInt(100, 20_000);
            if (PORTS.stream().allMatch(p -> free(p + offset))) {
                return offset;
            }
        }
        throw new IllegalStateException("no port offset with all of " + PORTS + " free");
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
