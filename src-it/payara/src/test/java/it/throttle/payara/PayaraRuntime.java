package it.throttle.payara;

import io.github.throttle.testing.RedisProcess;
import it.throttle.scenarios.Observability;
import it.throttle.scenarios.RawHttp;
import it.throttle.scenarios.ServerProcess;
import it.throttle.servlet.ServletRuntime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static it.throttle.scenarios.AdminClient.OPERATOR;
import static it.throttle.scenarios.ServerProcess.required;

/**
 * Payara Micro (6 in src-it/payara, 7 in src-it/payara7, which shares these sources): the server jar serving the
 * application WAR at {@code /} on a free port, bound to 127.0.0.1; the build names the jar, the WAR and the java
 * binary. Payara Micro bundles MicroProfile Metrics 5 and Health: Throttle publishes through them with no
 * configuration.
 */
public final class PayaraRuntime implements ServletRuntime {

    @Override
    public ServerProcess start(String name, Map<String, String> env, Map<String, String> adminUsers) {
        Path jar = Path.of(required("payara.jar"));
        Path war = Path.of(required("payara.war"));
        Path work = Path.of(required("payara.work"));
        try {
            Path root = Files.createTempDirectory(work, name + "-root-");
            Path preBoot = root.resolve("pre-boot.asadmin");
            // loopback only: nothing outside this machine reaches the test server
            Files.writeString(preBoot, "set configs.config.server-config.network-config.network-listeners"
                    + ".network-listener.http-listener.address=127.0.0.1\n");
            Path postBoot = root.resolve("post-boot.asadmin");
            StringBuilder commands = new StringBuilder();
            for (Map.Entry<String, String> user : adminUsers.entrySet()) {
                // file-realm users; payara-web.xml maps the group throttle-admin to the role
                Path password = root.resolve(user.getKey() + ".password");
                Files.writeString(password, "AS_ADMIN_USERPASSWORD=" + user.getValue() + "\n");
                commands.append("create-file-user --groups ").append(OPERATOR.equals(user.getKey()) ? "throttle-admin" : "users")
                        .append(" --passwordfile ").append(password).append(' ').append(user.getKey()).append('\n');
            }
            Files.writeString(postBoot, commands.toString());
            Path console = work.resolve(name + ".log");
            int port = RedisProcess.freePort();
            List<String> command = List.of(
                    java(),
                    "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                    // the one line of configuration Throttle's OpenAPI responses need on Payara
                    "-Dmp.openapi.filter=io.github.throttle.openapi.ThrottleOpenApiFilter",
                    "-jar", jar.toString(),
                    "--deploy", war.toString(),
                    "--contextroot", "/",
                    "--port", Integer.toString(port),
                    "--nocluster",
                    "--disablephonehome",
                    "--rootdir", root.toString(),
                    "--unpackdir", work.resolve("runtime").toString(),
                    "--prebootcommandfile", preBoot.toString(),
                    "--postbootcommandfile", postBoot.toString());
            return ServerProcess.start("Payara Micro (" + name + ")", command, root, env, port, console, () -> console,
                    server -> RawHttp.answers(port, "/it/open"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The java binary that runs the server: the property {@code payara.java} when set (Payara Micro 7 needs Java
     * 21+ while the build may run on 17), else the one running the tests.
     */
    private static String java() {
        String java = System.getProperty("payara.java");
        return java == null || java.isBlank() ? Path.of(System.getProperty("java.home"), "bin", "java").toString() : java;
    }

    @Override
    public Observability observed(ServerProcess server) {
        return new Observability(server.port());
    }

    @Override
    public String metrics() {
        return "mp-metrics";
    }

    @Override
    public String openApiJson() {
        return "/openapi";
    }
}
