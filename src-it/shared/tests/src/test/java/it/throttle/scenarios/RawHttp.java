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
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName(localAddress), 0));
            s.connect(new InetSocketAddress(host, port), 5000);
            s.setSoTimeout(10_000);
            StringBuilder req = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\nHost: ").append(host).append(':')
                    .append(port).append("\r\nConnection: close\r\n");
            headers.forEach((k, v) -> req.append(k).append(": ").append(v).append("\r\n"));
            req.append("\r\n");
            s.getOutputStream().write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) != -1 && c != '\n') {
                line.write(c);
            }
            String status = line.toString(StandardCharsets.ISO_8859_1);
            return Integer.parseInt(status.split(" ")[1]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
