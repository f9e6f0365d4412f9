package dev.codetok.samples;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A small least-recently-used cache with a loader.
 *
 * <p>Not thread-safe: wrap it with {@code Collections.synchronizedMap} if needed.
 */
public final class LruCache<K, V> extends LinkedHashMap<K, V> {
    private static final long serialVersionUID = 1L;
    private final int capacity;
    private transient Function<? super K, ? extends V> loader;

    public LruCache(int capacity, Function<? super K, ? extends V> loader) {
        super(16, 0.75f, true);
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be > 0, got " + capacity);
        }
        this.capacity = capacity;
        this.loader = Objects.requireNonNull(loader, "loader");
    }

    public V load(K key) {
        V value = get(key);
        if (value == null && !containsKey(key)) {
            value = loader.apply(key);
            put(key, value);
        }
        return value;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > capacity;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("LruCache{");
        for (Map.Entry<K, V> e : entrySet()) {
            sb.append(e.getKey()).append('=').append(e.getValue()).append(", ");
        }
        return sb.append("cap=").append(capacity).append('}').toString();
    }

    public static void main(String[] args) throws Exception {
        LruCache<Integer, String> cache = new LruCache<>(2, k -> "v" + (k * 2));
        for (int i : new int[] {1, 2, 1, 3}) {
            System.out.printf("%d -> %s%n", i, cache.load(i));
        }
        assert cache.size() == 2 : "évicted ✓";
    }
}
