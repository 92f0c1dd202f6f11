package io.github.throttle.testing;

import java.nio.file.Path;

/**
 * Points this JVM's {@code javax.net.ssl.trustStore} (and its password) at a file, as an operator does with
 * {@code -Djavax.net.ssl.trustStore=...}, until closed. TLS connections made meanwhile trust what it holds.
 */
public final class JvmTrustStore implements AutoCloseable {

    private static final String STORE = "javax.net.ssl.trustStore";
    private static final String PASSWORD = "javax.net.ssl.trustStorePassword";

    private final String previousStore = System.getProperty(STORE);
    private final String previousPassword = System.getProperty(PASSWORD);

    private JvmTrustStore(Path store, String password) {
        System.setProperty(STORE, store.toString());
        System.setProperty(PASSWORD, password);
    }

    public static JvmTrustStore use(Path store, String password) {
        return new JvmTrustStore(store, password);
    }

    /** The trust store of {@code ca}. */
    public static JvmTrustStore trusting(TestCertificates ca) {
        return use(ca.trustStore(), TestCertificates.PASSWORD);
    }

    @Override
    public void close() {
        restore(STORE, previousStore);
        restore(PASSWORD, previousPassword);
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
