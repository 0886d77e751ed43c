/**
 * Lexical search, one MiniSearch index per namespace — never one global index, whose term
 * statistics would let one tenant's data shift another tenant's scores. Indexes are built
 * lazily from SQLite and kept in a bounded LRU; a removed record is removed from its index
 * (terms and statistics), not just hidden.
 */
import MiniSearch from 'minisearch';
import { jsonStrings } from './json-strings.js';
import type { Namespace } from './namespace.js';
import type { LiveRecord } from './stored-record.js';

interface IndexedDoc {
  readonly id: string;
  readonly key: string;
  readonly text: string;
}

export interface IndexHit {
  readonly key: string;
  readonly score: number;
}

function docOf(r: LiveRecord): IndexedDoc {
  let text = r.content;
  if (r.contentType === 'application/json') {
    try {
      text = jsonStrings(JSON.parse(r.content), false).join(' ');
    } catch {
      // Stored JSON is validated; fall back to the raw text if that ever fails.
    }
  }
  return { id: r.key, key: r.key.replace(/[/_.-]+/g, ' '), text };
}

class NamespaceIndex {
  private readonly mini = new MiniSearch<IndexedDoc>({
    fields: ['key', 'text'],
    idField: 'id',
    searchOptions: { boost: { key: 2 }, prefix: false, fuzzy: false, combineWith: 'OR' },
  });
  private readonly docs = new Map<string, IndexedDoc>();

  upsert(r: LiveRecord): void {
    this.remove(r.key);
    const d = docOf(r);
    this.mini.add(d);
    this.docs.set(r.key, d);
  }

  remove(key: string): void {
    const d = this.docs.get(key);
    if (!d) return;
    this.mini.remove(d);
    this.docs.delete(key);
  }

  has(key: string): boolean {
    return this.docs.has(key);
  }

  holdsText(needle: string): boolean {
    for (const d of this.docs.values()) if (d.text.includes(needle)) return true;
    return this.mini.search(needle).length > 0; // a term still indexed for some document
  }

  search(text: string): IndexHit[] {
    return this.mini.search(text).map((h) => ({ key: String(h.id), score: h.score }));
  }
}

export class SearchIndexes {
  private readonly lru = new Map<Namespace, NamespaceIndex>();

  constructor(
    private readonly load: (ns: Namespace) => LiveRecord[],
    private readonly maxCached: number,
  ) {}

  private index(ns: Namespace): NamespaceIndex {
    let idx = this.lru.get(ns);
    if (idx) {
      this.lru.delete(ns);
      this.lru.set(ns, idx);
      return idx;
    }
    idx = new NamespaceIndex();
    // Deterministic build order, so a rebuilt index ranks exactly as the original did.
    for (const r of this.load(ns).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) idx.upsert(r);
    this.lru.set(ns, idx);
    while (this.lru.size > this.maxCached) {
      const oldest = this.lru.keys().next().value as Namespace;
      this.lru.delete(oldest);
    }
    return idx;
  }

  search(ns: Namespace, text: string): IndexHit[] {
    return this.index(ns).search(text);
  }

  /** Keep a cached index in step with a committed write; uncached ones rebuild on demand. */
  upsert(ns: Namespace, r: LiveRecord): void {
    this.lru.get(ns)?.upsert(r);
  }

  remove(ns: Namespace, key: string): void {
    this.lru.get(ns)?.remove(key);
  }

  /** Storage inspection: does any cached index still hold the text (a document or a term)? */
  holdsText(needle: string): boolean {
    for (const idx of this.lru.values()) if (idx.holdsText(needle)) return true;
    return false;
  }

  /** For tests and the index-removal check: is a key present in the namespace's index? */
  contains(ns: Namespace, key: string): boolean {
    return this.index(ns).has(key);
  }
}
