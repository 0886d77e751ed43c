/**
 * gofail-style failpoints: named seams in the reference where a test (or, later, the admin
 * HTTP controls and process-kill drivers) injects a failure between protocol steps.
 *
 * A point's program is a chain of terms separated by `->`, each optionally counted (`N*`):
 *   off              do nothing
 *   return(x)        make the step fail with x (an error code from the contract, or any
 *                    value the caller interprets)
 *   sleep(ms)        delay the step (opens interleavings)
 *   panic            crash: the panic handler runs (throws in-process; a served process exits)
 *   print            record that the point was reached (counted in `hits`)
 * e.g. `2*return("unavailable")->sleep(10)`: fail twice, then only delay. A term without a
 * count stays active forever; a chain whose counted terms are used up behaves like `off`.
 *
 * SMTC_FAILPOINTS (`name=program;name2=program`) arms points when the registry is created,
 * like GOFAIL_FAILPOINTS, so a child process can start with a point armed.
 */

export type FailpointTerm =
  | { readonly kind: 'off' }
  | { readonly kind: 'return'; readonly value: string | number | boolean }
  | { readonly kind: 'sleep'; readonly ms: number }
  | { readonly kind: 'panic' }
  | { readonly kind: 'print' };

interface CountedTerm {
  readonly term: FailpointTerm;
  /** Remaining executions; null = unlimited. */
  remaining: number | null;
}

/** What evaluating a point means for the step: continue, or fail with the returned value. */
export type FailpointOutcome =
  | { readonly fail: false }
  | { readonly fail: true; readonly value: string | number | boolean };

export class FailpointPanic extends Error {
  override name = 'FailpointPanic';
  constructor(readonly point: string) {
    super(`failpoint panic at ${point}`);
  }
}

export class FailpointSyntaxError extends Error {
  override name = 'FailpointSyntaxError';
}

const NAME = /^[a-z][a-z0-9_.-]{0,63}$/;
const MAX_PROGRAM = 512;
const MAX_TERMS = 16;
const MAX_SLEEP_MS = 60_000;
const MAX_POINTS = 256;

/** Parse one program (`off`, `2*return(x)->sleep(5)` …); throws FailpointSyntaxError. */
export function parseFailpointProgram(program: string): readonly FailpointTerm[] {
  return parseCounted(program).map((c) => c.term);
}

function parseCounted(program: string): CountedTerm[] {
  if (typeof program !== 'string' || program.length === 0 || program.length > MAX_PROGRAM) {
    throw new FailpointSyntaxError('failpoint program must be a non-empty string of bounded length');
  }
  const parts = program.split('->');
  if (parts.length > MAX_TERMS) throw new FailpointSyntaxError('too many chained failpoint terms');
  return parts.map((raw) => {
    const m = /^\s*(?:(\d{1,6})\*)?([a-z]+)(?:\((.*)\))?\s*$/.exec(raw);
    if (!m) throw new FailpointSyntaxError('malformed failpoint term');
    const count = m[1] === undefined ? null : Number(m[1]);
    if (count === 0) throw new FailpointSyntaxError('a failpoint count must be positive');
    return { term: parseTerm(m[2]!, m[3]), remaining: count };
  });
}

function parseTerm(kind: string, arg: string | undefined): FailpointTerm {
  switch (kind) {
    case 'off':
    case 'panic':
    case 'print':
      if (arg !== undefined) throw new FailpointSyntaxError(`${kind} takes no argument`);
      return { kind };
    case 'sleep': {
      const ms = Number(arg);
      if (arg === undefined || !/^\d+$/.test(arg.trim()) || ms > MAX_SLEEP_MS) {
        throw new FailpointSyntaxError('sleep needs a whole number of milliseconds (bounded)');
      }
      return { kind, ms };
    }
    case 'return':
      if (arg === undefined) throw new FailpointSyntaxError('return needs a value');
      return { kind, value: parseValue(arg.trim()) };
    default:
      throw new FailpointSyntaxError('unknown failpoint term');
  }
}

function parseValue(arg: string): string | number | boolean {
  if (arg === 'true' || arg === 'false') return arg === 'true';
  if (/^-?\d+(\.\d+)?$/.test(arg)) return Number(arg);
  const quoted = /^"([^"\\]*)"$/.exec(arg) ?? /^'([^'\\]*)'$/.exec(arg);
  if (quoted) return quoted[1]!;
  if (/^[A-Za-z0-9_.:-]{1,64}$/.test(arg)) return arg;
  throw new FailpointSyntaxError('unsupported return value');
}

export class Failpoints {
  private readonly armed = new Map<string, CountedTerm[]>();
  private readonly hitCounts = new Map<string, number>();
  /** Runs on `panic`; the default throws so in-process callers see a crash-like error. */
  panicHandler: (point: string) => never = (point) => {
    throw new FailpointPanic(point);
  };

  constructor(spec: string | undefined = process.env.SMTC_FAILPOINTS) {
    if (spec) {
      for (const entry of spec.split(';')) {
        if (entry.trim() === '') continue;
        const eq = entry.indexOf('=');
        if (eq <= 0) throw new FailpointSyntaxError('SMTC_FAILPOINTS entries are name=program');
        this.set(entry.slice(0, eq).trim(), entry.slice(eq + 1).trim());
      }
    }
  }

  set(name: string, program: string): void {
    if (typeof name !== 'string' || !NAME.test(name)) throw new FailpointSyntaxError('invalid failpoint name');
    const terms = parseCounted(program);
    if (terms.length === 1 && terms[0]!.term.kind === 'off' && terms[0]!.remaining === null) {
      this.armed.delete(name);
      return;
    }
    if (!this.armed.has(name) && this.armed.size >= MAX_POINTS) throw new FailpointSyntaxError('too many failpoints');
    this.armed.set(name, terms);
  }

  clear(name?: string): void {
    if (name === undefined) this.armed.clear();
    else this.armed.delete(name);
  }

  /** Armed points and their remaining programs (for the admin listing). */
  list(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, terms] of this.armed) out[name] = terms.map(render).join('->');
    return out;
  }

  /** How many times a point was reached while armed with an active term. */
  hits(name: string): number {
    return this.hitCounts.get(name) ?? 0;
  }

  /**
   * Evaluate a point: sleeps are awaited here, panics run the handler, a `return` is handed
   * back for the step to turn into its failure. Unarmed points cost one map lookup.
   */
  async evaluate(name: string): Promise<FailpointOutcome> {
    const terms = this.armed.get(name);
    if (!terms) return { fail: false };
    const active = terms.find((t) => t.remaining === null || t.remaining > 0);
    if (!active) return { fail: false };
    if (active.remaining !== null) active.remaining -= 1;
    this.hitCounts.set(name, this.hits(name) + 1);
    const term = active.term;
    switch (term.kind) {
      case 'off':
      case 'print':
        return { fail: false };
      case 'sleep':
        await new Promise((resolve) => setTimeout(resolve, term.ms));
        return { fail: false };
      case 'panic':
        return this.panicHandler(name);
      case 'return':
        return { fail: true, value: term.value };
    }
  }
}

function render(c: CountedTerm): string {
  const t = c.term;
  const body =
    t.kind === 'return'
      ? `return(${typeof t.value === 'string' ? JSON.stringify(t.value) : String(t.value)})`
      : t.kind === 'sleep'
        ? `sleep(${t.ms})`
        : t.kind;
  return c.remaining === null ? body : `${c.remaining}*${body}`;
}
