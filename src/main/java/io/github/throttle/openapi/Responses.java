package io.github.throttle.openapi;

import io.github.throttle.engine.Limit;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;

import java.lang.reflect.Method;
import java.util.List;
import java.util.stream.Collectors;

/** The parts of the document Throttle defines once under {@code components}, and responses that refer to them. */
final class Responses {

    static final String PROBLEM = "ThrottleProblem";
    static final String UNAVAILABLE = "#/components/responses/ThrottleUnavailable";
    static final String BLOCKED = "#/components/responses/ThrottleBlocked";
    private static final String PROBLEM_JSON = "application/problem+json";

    private Responses() {
    }

    /** A 429 response with this description, its body and headers referring to the components. */
    static APIResponse tooManyRequests(String description) {
        return OASFactory.createAPIResponse()
                .description(description)
                .addHeader("Retry-After", OASFactory.createHeader().ref("#/components/headers/Retry-After"))
                .addHeader("RateLimit", OASFactory.createHeader().ref("#/components/headers/RateLimit"))
                .addHeader("RateLimit-Policy", OASFactory.createHeader().ref("#/components/headers/RateLimit-Policy"))
                .content(OASFactory.createContent().addMediaType(PROBLEM_JSON,
                        OASFactory.createMediaType().schema(OASFactory.createSchema().ref("#/components/schemas/" + PROBLEM))));
    }

    /** The {@code RateLimit-Policy} value of these limits, as a response carries it. */
    static String policy(List<Limit> limits) {
        return limits.stream().map(l -> "\"" + l.policy() + "\";q=" + l.limit() + ";w=" + Math.max(1, (l.durationMillis() + 999) / 1000))
                .collect(Collectors.joining(", "));
    }

    /**
     * Defines the problem body, the three headers, (with {@code deny}) the 503 and (with {@code block}) the 403,
     * unless already there.
     */
    static void define(Components c, boolean deny, boolean block) {
        if (c.getSchemas() == null || !c.getSchemas().containsKey(PROBLEM)) {
            c.addSchema(PROBLEM, typed(OASFactory.createSchema(), "OBJECT")
                    .description("RFC 9457 problem details of a refused call")
                    .addProperty("type", typed(OASFactory.createSchema(), "STRING").format("uri")
                            .example("https://iana.org/assignments/http-problem-types#quota-exceeded"))
                    .addProperty("title", typed(OASFactory.createSchema(), "STRING").example("Too Many Requests"))
                    .addProperty("status", typed(OASFactory.createSchema(), "INTEGER").example(429))
                    .addProperty("detail", typed(OASFactory.createSchema(), "STRING"))
                    .addProperty("violated-policies", typed(OASFactory.createSchema(), "ARRAY")
                            .items(typed(OASFactory.createSchema(), "STRING"))));
        }
        header(c, "Retry-After", "Seconds to wait before this call can succeed", "INTEGER");
        header(c, "RateLimit", "Per limit: available weight (r) and the seconds during which no more can be used (t)", "STRING");
        header(c, "RateLimit-Policy", "Per limit: the weight allowed (q) per window of w seconds", "STRING");
        if (deny && (c.getResponses() == null || !c.getResponses().containsKey("ThrottleUnavailable"))) {
            c.addResponse("ThrottleUnavailable", problem("Service Unavailable: the rate limiter cannot decide right now;"
                    + " retry after Retry-After seconds")
                    .addHeader("Retry-After", OASFactory.createHeader().ref("#/components/headers/Retry-After")));
        }
        if (block && (c.getResponses() == null || !c.getResponses().containsKey("ThrottleBlocked"))) {
            c.addResponse("ThrottleBlocked", problem("Forbidden: the caller is on the blocked plan"));
        }
    }

    private static APIResponse problem(String description) {
        return OASFactory.createAPIResponse().description(description).content(OASFactory.createContent()
                .addMediaType(PROBLEM_JSON, OASFactory.createMediaType().schema(OASFactory.createSchema().ref("#/components/schemas/" + PROBLEM))));
    }

    private static void header(Components c, String name, String description, String type) {
        if (c.getHeaders() == null || !c.getHeaders().containsKey(name)) {
            Header h = OASFactory.createHeader().description(description).schema(typed(OASFactory.createSchema(), type));
            c.addHeader(name, h);
        }
    }

    /**
     * Sets a schema's type on MicroProfile OpenAPI 3 ({@code type(SchemaType)}) and 4 ({@code type(List)}), whose
     * signatures differ; done while the document is built, never per request.
     */
    static Schema typed(Schema schema, String type) {
        try {
            Class<?> types = Class.forName(Schema.class.getName() + "$SchemaType", false, Schema.class.getClassLoader());
            Object value = types.getMethod("valueOf", String.class).invoke(null, type);
            try {
                Method single = Schema.class.getMethod("type", types);
                return (Schema) single.invoke(schema, value);
            } catch (NoSuchMethodException e) {
                Method list = Schema.class.getMethod("type", List.class);
                return (Schema) list.invoke(schema, List.of(value));
            }
        } catch (ReflectiveOperationException e) {
            return schema;
        }
    }
}
