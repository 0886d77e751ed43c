/**
 * Mints canaries (unique per kit, random per run) and records where each was planted, so the
 * report can show every canary, its category and every input it went through.
 */
import { randomInt } from 'node:crypto';
import { CANARY_SHAPES, type Random } from './canary-shapes.js';
import { FORBIDDEN_CATEGORIES, type ForbiddenCategory, isForbiddenCategory } from './forbidden-categories.js';

export interface Canary {
  /** Stable within a run, e.g. `cnry-03-cookie`. */
  readonly id: string;
  readonly category: ForbiddenCategory;
  /** `cnry` + 16 random base32 characters: what the scanner looks for, raw and encoded. */
  readonly marker: string;
  /** The planted value, shaped like the real thing, containing the marker. */
  readonly value: string;
}

export const MARKER_PREFIX = 'cnry';
const MARKER_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const MARKER_RANDOM_LENGTH = 16;
/** A run plants a few canaries per category; this bound keeps a runaway loop from growing the report. */
export const MAX_CANARIES = 1_000;
const MAX_WHERE_LENGTH = 200;

const cryptoRandom: Random = (alphabet, length) => {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[randomInt(alphabet.length)];
  return s;
};

export class CanaryKit {
  private readonly minted: Canary[] = [];
  private readonly markers = new Set<string>();
  private readonly planted = new Map<string, string[]>();

  constructor(private readonly random: Random = cryptoRandom) {}

  mint(category: ForbiddenCategory): Canary {
    if (!isForbiddenCategory(category)) throw new TypeError('unknown forbidden category');
    if (this.minted.length >= MAX_CANARIES) throw new RangeError('canary bound reached');
    let marker: string;
    do marker = MARKER_PREFIX + this.random(MARKER_ALPHABET, MARKER_RANDOM_LENGTH);
    while (this.markers.has(marker));
    this.markers.add(marker);
    const canary: Canary = {
      id: `cnry-${String(this.minted.length + 1).padStart(2, '0')}-${category}`,
      category,
      marker,
      value: CANARY_SHAPES[category](marker, this.random),
    };
    this.minted.push(canary);
    this.planted.set(canary.marker, []);
    return canary;
  }

  /** One fresh canary per forbidden category. */
  mintAll(): Record<ForbiddenCategory, Canary> {
    const out = {} as Record<ForbiddenCategory, Canary>;
    for (const c of FORBIDDEN_CATEGORIES) out[c] = this.mint(c);
    return out;
  }

  /** Record that the canary went into `where` (e.g. `request.header:cookie`); returns its value. */
  plant(canary: Canary, where: string): string {
    const list = this.planted.get(canary.marker);
    if (!list) throw new Error('canary was not minted by this kit');
    if (typeof where !== 'string' || where.length === 0 || where.length > MAX_WHERE_LENGTH) {
      throw new TypeError('planting location must be a non-empty string of at most 200 characters');
    }
    if (!list.includes(where)) list.push(where);
    return canary.value;
  }

  canaries(): readonly Canary[] {
    return this.minted.slice();
  }

  plantedAt(canary: Canary): readonly string[] {
    return this.planted.get(canary.marker)?.slice() ?? [];
  }
}
