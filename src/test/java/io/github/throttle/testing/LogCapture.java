package io.github.throttle.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** What Throttle logs (logger {@code io.github.throttle}) while it is open. */
public final class LogCapture implements AutoCloseable {

    private final Logger logger = Logger.getLogger("io.github.throttle");
    private final List<LogRecord> records = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            synchronized (records) {
                records.add(r);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    public LogCapture() {
        logger.addHandler(handler);
    }

    /** The messages logged at {@code level} so far. */
    public List<String> at(Level level) {
        synchronized (records) {
            return records.stream().filter(r -> r.getLevel() == level).map(r -> String.valueOf(r.getMessage())).toList();
        }
    }

    /** The one message logged at {@code level} so far; an error if there are none or several. */
    public String only(Level level) {
        List<String> messages = at(level);
        if (messages.size() != 1) {
            throw new AssertionError("expected one " + level + " message, logged: " + all());
        }
        return messages.get(0);
    }

    /** Every message logged so far. */
    public List<String> all() {
        synchronized (records) {
            return records.stream().map(r -> String.valueOf(r.getMessage())).toList();
        }
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
