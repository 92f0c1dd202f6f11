package io.github.throttle.jaxrs;

import io.github.throttle.fleet.AdminBounds;
import java.util.function.Function;

/** How the admin API reads its parameters: each refused with a message that names it first. */
final class AdminParameters {

    private AdminParameters() {
    }

    /** A parameter refused before anything is asked of the admin. */
    static final class BadParameter extends RuntimeException {
        BadParameter(String parameter, String why) {
            super(parameter + ": " + why, null, false, false);
        }
    }

    static int count(String text) {
        try {
            int n = Integer.parseInt(text.trim());
            if (n >= 1 && n <= AdminBounds.MOST_DENIED) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("'" + text + "' must be a whole number from 1 to " + AdminBounds.MOST_DENIED);
    }

    static String required(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new BadParameter(name, "required");
        }
        return value.trim();
    }

    /** {@code identity} from the query or the {@value ThrottleAdminResource#IDENTITY_HEADER} header (not two different ones). */
    static String identity(String query, String header) {
        boolean inQuery = query != null && !query.isBlank();
        boolean inHeader = header != null && !header.isBlank();
        if (inQuery && inHeader && !query.trim().equals(header.trim())) {
            throw new BadParameter("identity", "given twice, in the query and in the " + ThrottleAdminResource.IDENTITY_HEADER + " header, differently");
        }
        if (!inQuery && !inHeader) {
            throw new BadParameter("identity", "required, as a query parameter or in the " + ThrottleAdminResource.IDENTITY_HEADER + " header");
        }
        return (inQuery ? query : header).trim();
    }


    static <T> T parse(String name, String text, Function<String, T> parser) {
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            throw new BadParameter(name, e.getMessage());
        }
    }
}
