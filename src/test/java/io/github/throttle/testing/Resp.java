package io.github.throttle.testing;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One command to a server on a loopback port, on a connection of its own, without a client library: what the
 * launchers need before a test's clients connect (is it up, which server is it, pause it).
 */
final class Resp {

    private Resp() {
    }

    /** Whether the server on {@code port} answers PING; one with {@code requirepass} answers NOAUTH, up all the same. */
    static boolean ping(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            s.setSoTimeout(500);
            s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] buf = new byte[64];
            int n = s.getInputStream().read(buf);
            String reply = n > 0 ? new String(buf, 0, n, StandardCharsets.US_ASCII) : "";
            return reply.startsWith("+PONG") || reply.startsWith("-NOAUTH");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Sends {@code args} to the server on {@code port}, after {@code AUTH password} when {@code password} is not
     * null, and returns the reply: a status, error or integer line as sent ({@code +OK}), a bulk string's text.
     */
    static String send(int port, String password, String... args) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            if (password != null) {
                write(socket, "AUTH", password);
                String auth = read(in);
                if (!"+OK".equals(auth)) {
                    throw new IllegalStateException("AUTH answered " + auth);
                }
            }
            write(socket, args);
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Socket socket, String... args) throws IOException {
        StringBuilder resp = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            resp.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
        }
        socket.getOutputStream().write(resp.toString().getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
    }

    private static String read(DataInputStream in) throws IOException {
        String line = line(in);
        if (!line.startsWith("$") || line.equals("$-1")) {
            return line;
        }
        byte[] bulk = new byte[Integer.parseInt(line.substring(1))];
        in.readFully(bulk);
        line(in);
        return new String(bulk, StandardCharsets.UTF_8);
    }

    private static String line(DataInputStream in) throws IOException {
        StringBuilder s = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed after " + s);
            }
            if (b != '\r') {
                s.append((char) b);
            }
        }
        return s.toString();
    }
}
