package io.github.throttle.openapi;

import io.github.throttle.engine.Limit;
import io.github.throttle.limiter.Limiter;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.CDI;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Adds to the OpenAPI document, on every throttled operation, the {@code 429} it can answer (and the
 * {@code 503} when {@code throttle.on-store-failure=deny}, {@code 403} when a {@code blocked} list or a plan bean exists): the headers and the problem body are defined once
 * under {@code components} and referenced; the description names the operation's own limits. Operations
 * without limits, switched off or in report mode, and responses the application declares itself, are left
 * as they are.
 *
 * <p>Quarkus finds it by its {@link OpenApiFilter} annotation (applied to each request of the document).
 * Elsewhere: {@code mp.openapi.filter=io.github.throttle.openapi.ThrottleOpenApiFilter}.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.RUNTIME_PER_REQUEST)
public class ThrottleOpenApiFilter implements OASFilter {

    private static final System.Logger LOG = System.getLogger("io.github.throttle");

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        // WildFly builds the document once, at deployment, on a server thread: its CDI finds the application's
        // container by the thread's context class loader, which is then not the application's
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        ClassLoader own = ThrottleOpenApiFilter.class.getClassLoader();
        boolean borrow = own != null && own != previous && !cdiVisible();
        if (borrow) {
            thread.setContextClassLoader(own);
        }
        try {
            filter(openAPI);
        } finally {
            if (borrow) {
                thread.setContextClassLoader(previous);
            }
        }
    }

    private static boolean cdiVisible() {
        try {
            CDI.current();
            return true;
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static void filter(OpenAPI openAPI) {
        CDI<Object> cdi;
        Limiter limiter;
        try {
            cdi = CDI.current();
            limiter = cdi.select(Limiter.class).get();
        } catch (RuntimeException | LinkageError e) {
            LOG.log(System.Logger.Level.WARNING, "Throttle cannot add its responses to the OpenAPI document: " + e);
            return;
        }
        Map<Method, Class<?>> resources = limiter.targets().servedOverHttp();
        BeanManager beans = cdi.getBeanManager();
        for (Bean<?> bean : beans.getBeans(Object.class, Any.Literal.INSTANCE)) {
            ThrottledOperations.addResourceMethods(bean.getBeanClass(), resources);
        }
        List<ThrottledOperations.Operation> throttled = ThrottledOperations.of(limiter, resources);
        if (throttled.isEmpty() || openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        boolean deny = limiter.deniesOnStoreFailure();
        boolean block = limiter.mayBlock();
        boolean used = false;
        for (Map.Entry<String, PathItem> path : openAPI.getPaths().getPathItems().entrySet()) {
            Map<PathItem.HttpMethod, org.eclipse.microprofile.openapi.models.Operation> operations = path.getValue().getOperations();
            if (operations == null) {
                continue;
            }
            for (var op : operations.entrySet()) {
                for (ThrottledOperations.Operation t : throttled) {
                    if (t.httpMethod().equalsIgnoreCase(op.getKey().name()) && t.matches(path.getKey())) {
                        used |= addResponses(op.getValue(), t, deny, block);
                        break;
                    }
                }
            }
        }
        if (used) {
            Components components = openAPI.getComponents();
            if (components == null) {
                components = OASFactory.createComponents();
                openAPI.setComponents(components);
            }
            Responses.define(components, deny, block);
        }
    }

    private static boolean addResponses(org.eclipse.microprofile.openapi.models.Operation op, ThrottledOperations.Operation t,
                                        boolean deny, boolean block) {
        APIResponses responses = op.getResponses();
        if (responses == null) {
            responses = OASFactory.createAPIResponses();
            op.setResponses(responses);
        }
        boolean added = false;
        if (responses.getAPIResponse("429") == null) {
            String limits = t.target().limits().stream().map(Limit::toString).collect(Collectors.joining(", "));
            APIResponse tooMany = Responses.tooManyRequests("Too Many Requests: a limit of this operation is spent ("
                    + limits + "); retry after Retry-After seconds. RateLimit-Policy: " + Responses.policy(t.target().limits()));
            responses.addAPIResponse("429", tooMany);
            added = true;
        }
        if (deny && responses.getAPIResponse("503") == null) {
            responses.addAPIResponse("503", OASFactory.createAPIResponse().ref(Responses.UNAVAILABLE));
            added = true;
        }
        if (block && responses.getAPIResponse("403") == null) {
            responses.addAPIResponse("403", OASFactory.createAPIResponse().ref(Responses.BLOCKED));
            added = true;
        }
        return added;
    }
}
