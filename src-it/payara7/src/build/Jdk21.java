import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Finds the JDK 21+ that runs Payara Micro 7 (the build itself may run on Java 17), run by the build with the
 * source launcher ({@code java Jdk21.java ...}) before anything is compiled.
 *
 * <p>Looks, in this order, at the property {@code jdk21.home} (when set, only there), at {@code JAVA_HOME} when
 * it is 21+, then at the JDKs under {@code jdk21.search} ({@code /usr/lib/jvm}), the newest first. A JDK is a
 * directory with {@code bin/java} and a {@code release} file whose {@code JAVA_VERSION} is 21 or more.
 *
 * <p>Writes the properties file the build reads back: {@code payara.java} (the server's java binary), or, with
 * none found, {@code skipITs=true} and one line saying the suite is not run. With none found and a JDK required
 * (the environment variable {@code CI} is {@code true}, or {@code -Dit.require.jdk21=true}), it exits
 * with 1 and the build fails.
 *
 * <p>Arguments, each {@code name=value}: {@code out} (the properties file), {@code jdk21.home} (blank: not set),
 * {@code jdk21.search}, {@code it.require.jdk21}.
 */
public class Jdk21 {

    static final int MIN = 21;

    public static void main(String[] args) throws IOException {
        Properties given = new Properties();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            given.setProperty(arg.substring(0, eq), arg.substring(eq + 1).trim());
        }
        Path out = Path.of(given.getProperty("out"));
        String home = given.getProperty("jdk21.home", "");
        Path search = Path.of(given.getProperty("jdk21.search", "").isEmpty() ? "/usr/lib/jvm" : given.getProperty("jdk21.search"));
        String requiredBy = "true".equals(System.getenv("CI")) ? "CI=true"
                : "true".equals(given.getProperty("it.require.jdk21")) ? "it.require.jdk21=true" : null;

        Optional<Path> found;
        String where;
        if (!home.isEmpty()) {
            found = jdk(Path.of(home));
            where = "jdk21.home=" + home + " is not one";
        } else {
            String javaHome = System.getenv("JAVA_HOME");
            found = javaHome == null || javaHome.isBlank() ? Optional.empty() : jdk(Path.of(javaHome));
            if (found.isEmpty()) {
                found = newestUnder(search);
            }
            where = "looked at JAVA_HOME and " + search;
        }

        Properties props = new Properties();
        Files.createDirectories(out.toAbsolutePath().getParent());
        if (found.isPresent()) {
            Path java = found.get().resolve("bin").resolve("java");
            props.setProperty("payara.java", java.toString());
            write(props, out);
            System.out.println("Payara Micro 7 suite runs on Java " + version(found.get()).orElse("?") + ": " + java);
            return;
        }
        String line = "Payara Micro 7 suite not run: no JDK " + MIN + "+ found (" + where
                + "; set -Djdk21.home; CI requires it)";
        if (requiredBy != null) {
            System.out.println(line.replace(" not run: ", " cannot run (" + requiredBy + "): "));
            System.exit(1);
        }
        props.setProperty("skipITs", "true");
        props.setProperty("payara.java", "");
        write(props, out);
        System.out.println(line);
    }

    /** {@code dir} when it is a JDK of version {@link #MIN} or more. */
    static Optional<Path> jdk(Path dir) {
        if (!Files.isExecutable(dir.resolve("bin").resolve("java"))) {
            return Optional.empty();
        }
        return feature(dir).filter(v -> v >= MIN).map(v -> dir);
    }

    static Optional<Path> newestUnder(Path search) throws IOException {
        if (!Files.isDirectory(search)) {
            return Optional.empty();
        }
        try (Stream<Path> dirs = Files.list(search)) {
            List<Path> jdks = dirs.filter(Files::isDirectory).flatMap(d -> jdk(d).stream())
                    .sorted(Comparator.comparing((Path d) -> feature(d).orElse(0)).reversed().thenComparing(Path::toString))
                    .toList();
            return jdks.stream().findFirst();
        }
    }

    /** {@code JAVA_VERSION} of the JDK's {@code release} file, e.g. {@code 25.0.3}. */
    static Optional<String> version(Path dir) {
        Path release = dir.resolve("release");
        if (!Files.isRegularFile(release)) {
            return Optional.empty();
        }
        try {
            return Files.readAllLines(release).stream().filter(l -> l.startsWith("JAVA_VERSION="))
                    .map(l -> l.substring("JAVA_VERSION=".length()).replace("\"", "").trim()).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The feature number of {@link #version}: 25 for {@code 25.0.3}, 8 for {@code 1.8.0_402}. */
    static Optional<Integer> feature(Path dir) {
        return version(dir).flatMap(v -> {
            String[] parts = v.split("[.+_-]");
            try {
                int first = Integer.parseInt(parts[0]);
                return Optional.of(first == 1 && parts.length > 1 ? Integer.parseInt(parts[1]) : first);
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        });
    }

    static void write(Properties props, Path out) throws IOException {
        try (var w = Files.newBufferedWriter(out)) {
            props.store(w, "written by src/build/Jdk21.java");
        }
    }
}
