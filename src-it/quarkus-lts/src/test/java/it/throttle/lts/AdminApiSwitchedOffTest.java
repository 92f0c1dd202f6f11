package it.throttle.lts;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import it.throttle.scenarios.AdminClient;
import org.junit.jupiter.api.Test;

/** Without throttle.admin.enabled, the admin API answers as a path no resource has, whoever asks. */
@QuarkusTest
@TestProfile(Profiles.EmbeddedStore.class)
class AdminApiSwitchedOffTest extends AdminClient {

    @Test
    void itAnswers404() {
        operator().get("/throttle-admin/assignments").then().statusCode(404);
        operator().queryParam("identity", "ip:" + freshAddress()).queryParam("plan", "blocked")
                .put("/throttle-admin/assignments").then().statusCode(404);
        anonymous().get("/throttle-admin/buckets").then().statusCode(404);
    }
}
