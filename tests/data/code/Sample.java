package org.example;

import java.util.List;

/** Javadoc for the class. */
@Deprecated
public class Sample<T> {
    // a line comment
    private static final int COUNT = 0x1F;
    /* a block comment */
    public String name(List<T> items) {
        char c = 'x';
        String block = """
            text block
            """;
        return "n=" + items.size() + c + block;
    }
}
