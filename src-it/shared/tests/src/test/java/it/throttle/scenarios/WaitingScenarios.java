package it.throttle.scenarios;

import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.List;

import static it.throttle.scenarios.Client.rnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Callers that wait for their turn ({@code it.throttle.app.WaitingResource}: 2 calls per 2 s, a wait of up to
 * 2.5 s): of 6 calls sent at once, those that do not fit now are reserved in the next windows and answered 200
 * when their turn comes; those that cannot fit within the wait get 429 at once. Implemented by each runtime's suite.
 */
public interface WaitingScenarios extends Client {

    @Test
    default void callsThatDoNotFitNowWaitForTheirTurnAndTheRestGet429() {
        // Six calls sent at once meet in one window or two, where the third of a window waits for its turn. Only a
        // machine too slow to decide six calls within 2 s spreads them over three windows, each call fitting at
        // once: the answers show it (none waited) and the calls are sent again by a new client.
        for (int attempt = 1; ; attempt++) {
            String who = "10.12." + rnd() + "." + rnd();
            if (someWaited(Concurrently.run(6, i -> as(who).get("/it/wait")))) {
                return;
            }
            assertTrue(attempt < 5, "no call waited, " + attempt + " times in a row");
        }
    }

    /** Checks what six calls sent at once answered, whatever their timing; whether one of them waited. */
    private static boolean someWaited(List<Response> answers) {
        int proceeded = 0;
        int waited = 0;
        for (Response r : answers) {
            if (r.statusCode() == 200) {
                proceeded++;
                long ms = Long.parseLong(r.asString());
                assertTrue(ms >= 0 && ms <= 2500, "a call waited " + ms + " ms");
                waited += ms > 0 ? 1 : 0;
            } else {
                assertEquals(429, r.statusCode(), r.asString());
                assertTrue(Integer.parseInt(r.header("Retry-After")) >= 1, "Retry-After " + r.header("Retry-After"));
            }
        }
        // a call is refused only when the windows within its wait are full, and the wait of 2.5 s always reaches
        // the window after the call's own: at least 4 proceed, however the calls spread
        assertTrue(proceeded >= 4, proceeded + " calls proceeded");
        return waited > 0;
    }
}
