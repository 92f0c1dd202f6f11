package io.github.throttle.openapi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThrottledOperationsTest {

    @Test
    void pathTemplatesAreWrittenAsTheDocumentWritesThem() {
        assertEquals("/items/{id}", ThrottledOperations.normalize("items//{id: \\d{1,3}}/"));
        assertEquals("/items/{id}/parts", ThrottledOperations.normalize("/items/{ id }/parts"));
        assertEquals("/", ThrottledOperations.normalize(""));
    }

    @Test
    void anOperationMatchesItsPathWithOrWithoutTheApplicationsPathBeforeIt() {
        var op = new ThrottledOperations.Operation("GET", "/items/{id}", null);
        assertTrue(op.matches("/items/{id}"));
        assertTrue(op.matches("/api/items/{id}"));
        assertFalse(op.matches("/items"));
        assertFalse(op.matches("/otheritems/{id}"));
    }
}
