'use strict';

/**
 * A tiny event bus with wildcard listeners.
 * @module eventBus
 */
const WILDCARD = '*';

class EventBus {
  #listeners = new Map();

  on(type, handler, { once = false } = {}) {
    if (typeof handler !== 'function') {
      throw new TypeError(`handler for "${type}" must be a function, got ${typeof handler}`);
    }
    const list = this.#listeners.get(type) ?? [];
    list.push({ handler, once });
    this.#listeners.set(type, list);
    return () => this.off(type, handler);
  }

  off(type, handler) {
    const list = this.#listeners.get(type);
    if (!list) return false;
    const next = list.filter((l) => l.handler !== handler);
    next.length ? this.#listeners.set(type, next) : this.#listeners.delete(type);
    return next.length !== list.length;
  }

  emit(type, ...args) {
    const targets = [...(this.#listeners.get(type) || []), ...(this.#listeners.get(WILDCARD) || [])];
    for (const { handler, once } of targets) {
      try {
        handler.apply(null, type === WILDCARD ? args : [type, ...args]);
      } catch (err) {
        console.error('[eventBus] listener failed:', err && err.stack);
      }
      if (once) this.off(type, handler);
    }
    return targets.length > 0;
  }
}

module.exports = { EventBus, WILDCARD };

if (require.main === module) {
  const bus = new EventBus();
  bus.on('*', (t, x) => console.log(t, x >>> 0, 0x1f & x, 1e3, .5));
  bus.emit('tick', 42); // → "tick 42 10 1000 0.5"
}
