package it.throttle.scenarios;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A minimal HTTP/1.1 client over a socket bound to a chosen local address, so that a test can be a peer
 * the server does not trust (127.0.0.2) and send any header bytes it likes.
 */
public final class RawHttp {

    private RawHttp() {
    }

    /** Sends {@code GET path} from {@code localAddress}; returns the status code. */
    public static int get(String host, int port, String localAddress, String path, Map<String, String> headers) {
        StringBuilder req = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\nHost: ").append(host).append(':')
                .append(port).append("\r\nConnection: close\r\n");
        headers.forEach((k, v) -> req.append(k).append(": ").append(v).append("\r\n"));
        req.append("\r\n");
        try {
            return status(exchange(localAddress, host, port, req.toString().getBytes(StandardCharsets.ISO_8859_1)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The raw status line of {@code GET path} sent through the trusted loopback proxy for {@code client}. */
    public static String statusLine(int port, String path, String client) {
        String req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nX-Forwarded-For: " + client
                + "\r\nConnection: close\r\n\r\n";
        try {
            return exchange(null, "127.0.0.1", port, req.getBytes(StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Sends any bytes as a request to 127.0.0.1; returns the status code, 0 when the server closed the
     * connection without answering, -1 on an I/O error.
     */
    public static int send(int port, String request) {
        try {
            String line = exchange(null, "127.0.0.1", port, request.getBytes(StandardCharsets.UTF_8));
            return line.isEmpty() ? 0 : status(line);
        } catch (IOException e) {
            return -1;
        }
    }

    private static int status(String statusLine) {
        return Integer.parseInt(statusLine.split(" ")[1]);
    }

    /** Writes the request, reads the status line (without CR LF). */
    private static String exchange(String localAddress, String host, int port, byte[] request) throws IOException {
        try (Socket s = new Socket()) {
            if (localAddress != null) {
                s.bind(new InetSocketAddress(InetAddress.getByName(localAddress), 0));
            }
            s.connect(new InetSocketAddress(host, port), 5000);
            s.setSoTimeout(15_000);
            s.getOutputStream().write(request);
            return line(s.getInputStream());
        }
    }

    /** Reads one line ended by LF (or the end of the stream), without CR LF. */
    static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1 && c != '\n') {
            if (c != '\r') {
                line.write(c);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    /** Whether a server on {@code port} answers {@code GET path} with 200 (false while it starts). */
    public static boolean answers(int port, String path) {
        try {
            java.net.HttpURLConnection c = (java.net.HttpURLConnection) java.net.URI.create("http://127.0.0.1:" + port + path)
                    .toURL().openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(5000);
            try {
                return c.getResponseCode() == 200;
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return false;
        }
    }
}
