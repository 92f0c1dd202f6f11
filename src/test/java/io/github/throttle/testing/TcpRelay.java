package io.github.throttle.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on a free loopback port to a target port, for tests: a replica replicates through it, and the test
 * cuts the link ({@link #cut()}: every connection closed, new ones closed at once) and restores it. Each
 * connection is copied both ways by two daemon threads; closing either side closes both.
 */
public final class TcpRelay implements AutoCloseable {

    private final int target;
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;

    private TcpRelay(int target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accepting = new Thread(this::accept, "tcp-relay-" + server.getLocalPort() + "-accept");
        accepting.setDaemon(true);
        accepting.start();
    }

    /** A relay to {@code targetPort} on loopback. */
    public static TcpRelay start(int targetPort) {
        try {
            return new TcpRelay(targetPort);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Closes every connection, and each new one as soon as it is accepted, until {@link #restore()}. */
    public void cut() {
        cut = true;
        // each copying thread then ends, and forgets its pair
        open.forEach(TcpRelay::quietly);
    }

    public void restore() {
        cut = false;
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket in;
            try {
                in = server.accept();
            } catch (IOException e) {
                return;
            }
            if (cut) {
                quietly(in);
                continue;
            }
            Socket out = new Socket();
            try {
                out.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target), 5000);
                // as the server and its replicas do: each write goes out at once
                in.setTcpNoDelay(true);
                out.setTcpNoDelay(true);
            } catch (IOException e) {
                quietly(in);
                quietly(out);
                continue;
            }
            open.add(in);
            open.add(out);
            copy(in, out);
            copy(out, in);
            if (cut || server.isClosed()) {
                // cut or closed while connecting: cut() may have missed this pair
                quietly(in);
                quietly(out);
            }
        }
    }

    /** Copies {@code from} to {@code to} until either ends; then closes both. */
    private void copy(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // cut, or closed by the other side
            } finally {
                quietly(from);
                quietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "tcp-relay-" + server.getLocalPort() + "-copy");
        t.setDaemon(true);
        t.start();
    }

    private static void quietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        cut();
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
