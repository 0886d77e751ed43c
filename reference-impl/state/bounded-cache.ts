/**
 * A Map with an entry bound that evicts the least recently used entry: the MongoDB backend's
 * in-process memory of facts that never change once written (binding owners, lease sessions,
 * idempotency claims, last seen register versions). Only ever a shortcut, never the authority.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key); // re-inserted: Map order doubles as LRU order
      this.entries.set(key, v);
    }
    return v;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
