package io.github.throttle.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority of its own and the server certificates it signs, as real files, for a
 * {@code redis-server --tls-port}: keys and signatures made by the JDK's {@code keytool}, so a machine with only a
 * JDK can make them. The CA's certificate also sits in a PKCS#12 trust store, for {@code javax.net.ssl.trustStore}.
 */
public final class TestCertificates {

    /** The password of every key store made here. */
    public static final String PASSWORD = "changeit";

    private static volatile TestCertificates shared;

    private final Path dir;
    private int issued;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /** A new CA named {@code name}, in a new directory. */
    public static TestCertificates newAuthority(String name) {
        try {
            TestCertificates ca = new TestCertificates(Files.createTempDirectory("throttle-tls-"));
            ca.keytool("-genkeypair", "-keystore", ca.file("ca.p12"), "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
                    "-dname", "CN=" + name, "-ext", "bc:c", "-ext", "ku:c=keyCertSign,cRLSign", "-validity", "30");
            Certificate certificate = ca.load("ca.p12").getCertificate("ca");
            Files.writeString(ca.caCertificate(), pem("CERTIFICATE", certificate.getEncoded()));
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", certificate);
            try (OutputStream out = Files.newOutputStream(ca.trustStore())) {
                trust.store(out, PASSWORD.toCharArray());
            }
            return ca;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One CA for all tests of this JVM that need no other, with a server certificate for 127.0.0.1. */
    public static synchronized TestCertificates shared() {
        if (shared == null) {
            shared = newAuthority("Throttle test CA");
        }
        return shared;
    }

    /** The CA's certificate (PEM). */
    public Path caCertificate() {
        return dir.resolve("ca.crt");
    }

    /** A PKCS#12 trust store holding the CA's certificate only (password {@link #PASSWORD}). */
    public Path trustStore() {
        return dir.resolve("truststore.p12");
    }

    /** A server certificate for the IP address 127.0.0.1, valid from yesterday for a month. */
    public Server server() {
        return issue("127.0.0.1", "-1d", 31);
    }

    /** A server certificate for 127.0.0.1 that expired a week ago. */
    public Server expiredServer() {
        return issue("127.0.0.1", "-30d", 23);
    }

    /** A valid server certificate that names only {@code ip}. */
    public Server serverFor(String ip) {
        return issue(ip, "-1d", 31);
    }

    /**
     * A certificate and its key as {@code redis-server} reads them (PEM), and the CA that signed it. Good for a
     * client too: cluster nodes show it to each other (the cluster bus always asks for one).
     */
    public record Server(Path certificate, Path key, Path ca) {

        /** The {@code redis-server} arguments that serve TLS on {@code tlsPort} with this certificate (no client certificates). */
        public List<String> redisArgs(int tlsPort) {
            return List.of("--tls-port", Integer.toString(tlsPort), "--tls-cert-file", certificate.toString(),
                    "--tls-key-file", key.toString(), "--tls-ca-cert-file", ca.toString(), "--tls-auth-clients", "no");
        }
    }

    private synchronized Server issue(String ip, String startDate, int validityDays) {
        String name = "server" + (++issued);
        String store = file(name + ".p12");
        keytool("-genkeypair", "-keystore", store, "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=" + ip, "-validity", "30");
        keytool("-certreq", "-keystore", store, "-alias", name, "-file", file(name + ".csr"));
        keytool("-gencert", "-keystore", file("ca.p12"), "-alias", "ca", "-infile", file(name + ".csr"),
                "-outfile", file(name + ".crt"), "-rfc", "-ext", "san=ip:" + ip, "-ext", "ku:c=digitalSignature",
                "-ext", "eku=serverAuth,clientAuth", "-startdate", startDate, "-validity", Integer.toString(validityDays));
        try {
            Key key = load(name + ".p12").getKey(name, PASSWORD.toCharArray());
            Path pem = dir.resolve(name + ".key");
            Files.writeString(pem, pem("PRIVATE KEY", key.getEncoded()));
            return new Server(dir.resolve(name + ".crt"), pem, caCertificate());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private KeyStore load(String file) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(dir.resolve(file))) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, PASSWORD.toCharArray());
            return ks;
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    private void keytool(String... args) {
        // a short-lived JVM: the quickest start-up options
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
