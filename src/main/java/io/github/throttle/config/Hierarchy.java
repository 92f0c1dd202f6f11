package io.github.throttle.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The types a class inherits declarations from, most specific first: the class, its superclasses nearest first, then
 * the interfaces (the class's before its superclasses', each before the interfaces it extends). The order in which
 * Throttle looks for an inherited {@code @Throttle}, and for JAX-RS annotations an implementing method leaves out.
 */
public final class Hierarchy {

    private Hierarchy() {
    }

    /** {@code type} and what it inherits from, in that order; {@code Object} left out. */
    public static List<Class<?>> of(Class<?> type) {
        List<Class<?>> classes = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            classes.add(c);
        }
        Set<Class<?>> interfaces = new LinkedHashSet<>();
        for (Class<?> c : classes) {
            interfaces.addAll(List.of(c.getInterfaces()));
        }
        List<Class<?>> queue = new ArrayList<>(interfaces);
        for (int i = 0; i < queue.size(); i++) {
            for (Class<?> parent : queue.get(i).getInterfaces()) {
                if (interfaces.add(parent)) {
                    queue.add(parent);
                }
            }
        }
        classes.addAll(queue);
        return classes;
    }
}
