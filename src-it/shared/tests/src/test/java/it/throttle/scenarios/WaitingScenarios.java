package it.throttle.scenarios;

import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Callers that wait for their turn ({@code it.throttle.app.WaitingResource}: 2 calls per 2 s, a wait of up to
 * 2.5 s): of 6 calls sent at once, those that do not fit now are reserved in the next windows and answered 200
 * when their turn comes; those that cannot fit within the wait get 429 at once.
 */
public abstract class WaitingScenarios extends ClientScenarios {

    @Test
    public void callsThatDoNotFitNowWaitForTheirTurnAndTheRestGet429() {
        List<Response> answers = Concurrently.run(6, i -> me().get("/it/wait"));
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
        // the window of the first call, and the next one (it starts within 2 s): at least 4 proceed; calls sent
        // at once spread over 3 windows (4 s) only on a machine that has stopped
        assertTrue(proceeded >= 4, proceeded + " calls proceeded");
        assertTrue(waited >= 1, "no call waited");
    }
}
