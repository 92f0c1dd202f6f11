package it.throttle.payara;

import it.throttle.scenarios.RawHttp;
import it.throttle.scenarios.ThrottleScenarios;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared scenarios against one Payara Micro process, plus what only the wire shows on Payara. */
abstract class PayaraScenarios extends ThrottleScenarios {

    /** The server of the run; started once per test class. */
    protected abstract PayaraMicro payara();

    @Override
    protected String baseUri() {
        return "http://127.0.0.1";
    }

    @Override
    protected int port() {
        return payara().port();
    }

    @Test
    public void theStatusLineOfA429SaysTooManyRequests() {
        String client = "198.51.100." + (1 + (int) (Math.random() * 250));
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            lines.add(RawHttp.statusLine(port(), "/it/fixed", client));
        }
        assertEquals("HTTP/1.1 200 OK", lines.get(0), lines.toString());
        assertEquals("HTTP/1.1 429 Too Many Requests", lines.get(3), lines.toString());
    }

    @Test
    public void theStatusLineOfA429FromABeanSaysTooManyRequests() {
        // the bean's quota is global (2 per hour): at most three calls reach a denial
        String last = null;
        for (int i = 0; i < 3; i++) {
            last = RawHttp.statusLine(port(), "/it/service", "198.51.100.7");
            if (!last.contains(" 200 ")) {
                break;
            }
        }
        assertEquals("HTTP/1.1 429 Too Many Requests", last);
    }

    @Test
    public void theLibraryReportsItsStoreInTheServerLog() {
        String log = payara().log();
        assertTrue(log.contains("counting in the " + expectedStore()), "no 'counting in the " + expectedStore() + "' in the server log");
    }

    /** How the library names the store of this run in its start-up line. */
    protected abstract String expectedStore();

}
