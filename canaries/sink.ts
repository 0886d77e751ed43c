/**
 * What the scanner reads: named sinks (e.g. every request the span collector received), each a
 * list of items with their exact bytes and, when the item could be decoded, its text fields
 * (span names, attribute values …) so a hit can be located by span and attribute key.
 */
export interface SinkField {
  /** Where in the decoded item, e.g. `span[3].attributes` or `resource`. */
  readonly path: string;
  readonly spanName: string | null;
  /** Attribute key (or event/link attribute key) when the field is an attribute value. */
  readonly key: string | null;
  readonly value: string;
}

export interface SinkItem {
  readonly bytes: Uint8Array;
  /** Number of spans decoded from the item (0 when not decodable). */
  readonly spans?: number;
  readonly fields?: readonly SinkField[];
}

export interface Sink {
  /** e.g. `collector.requests` */
  readonly name: string;
  readonly description: string;
  readonly items: readonly SinkItem[];
}
