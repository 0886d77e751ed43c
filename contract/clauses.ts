/**
 * Which sentence of the contract (contract/CONTRACT.md) each clause of the suites enforces.
 * Quotes are verbatim (test/cli/contract-clauses.test.ts checks each one is in CONTRACT.md),
 * anchors are CONTRACT.md headings. A clause marked `interpretation` tests the kit's reading
 * of a sentence that does not settle the behaviour on its own; its rationale is one line
 * here and a paragraph under CLARIFICATIONS in CONTRACT.md.
 */
import type { RequirementId } from './requirements.js';

export interface ClauseContract {
  /** A heading anchor of CONTRACT.md, e.g. `commit-protocol`. */
  readonly anchor: string;
  /** The contract's words, verbatim. */
  readonly sentence: string;
  /** Set when the clause tests the kit's reading beyond the words: why, in one line. */
  readonly interpretation?: string;
}

type Entry = readonly [anchor: string, sentence: string, interpretation?: string];

/** The requirement's own line of the Conformance list: the fallback for a clause not listed below. */
const REQUIREMENT: Record<RequirementId, Entry> = {
  R01: ['conformance', 'completed and interrupted thread restore after worker/control-plane failure'],
  R02: ['conformance', 'exact durable-head selection and rejection of pending/stale state'],
  R03: ['conformance', 'idempotent duplicate state writes and explicit ambiguous-crash behavior'],
  R04: ['conformance', 'zero cross-binding, epoch, adapter, or lease-generation state access'],
  R05: ['conformance', 'user/agent/organization memory isolation and default policies'],
  R06: ['conformance', 'revision-conflict and consolidation provenance tests'],
  R07: ['conformance', 'memory injection, scope escalation, retention, approval, and deletion tests'],
  R08: ['conformance', 'one causal trace across control plane, worker, state, memory, tools, subagents, and encoding'],
  R09: ['conformance', 'malformed external context and forbidden-baggage rejection'],
  R10: ['conformance', 'telemetry leak canaries and bounded collector-outage tests'],
};

const TYPED =
  'the contract names no error for bad input; the kit requires a registered, typed error (contract/errors.ts) that changes nothing, since an untyped failure cannot be told from an outage';

const SUBAGENT_STEPS =
  'the tree draws `subagent.run` as a leaf, but context propagated to a subagent is its span’s: the spans of a subagent’s own steps (provider, tool, memory, nested subagents) are below its `subagent.run`, in the run’s one trace, or the causal chain breaks at the subagent';

const MID_CALL =
  '"current" is judged when a call takes effect: a call held inside the target while its lease is taken over or its epoch cleared is refused with the code the same call gets when started after the change, and stores nothing';

const CREDITED =
  'a revision is credited to the principal who wrote it: the record and every later consolidation source name that writer and the hash it held, never its approver or a later consolidating caller; an approved revision names its approver apart from the writer, one nobody approved is `not_required` with no approver; after a delete the re-created key is a new life: every source of a later consolidation (based on nothing, or on a deleted revision, too) is a revision of the current life, and no deleted revision or the hash it held reappears in the live record’s provenance';
const CLAUSES: Record<string, Entry> = {
  'R01.7': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
  ],
  'R01.8': ['thread-state-invariants', 'Pod-local state is a cache and is never selected during restore.'],
  'R01.9': ['thread-state-invariants', 'Pod-local state is a cache and is never selected during restore.'],
  'R01.15': [
    'commit-protocol',
    'Do not automatically replay model or tool work.',
    'a worker lost before any output is not a run that did nothing: killed (SIGKILL) while its model call is in flight, after a tool call and before any output, the run does not complete, shows no output, the tool and the model are each called once (watched 1.5 s after the kill and after the worker is back), and the previous head is kept — a re-dispatch to a fresh worker makes both calls again',
  ],
  'R01.13': [
    'thread-state-invariants',
    'Pod-local state is a cache and is never selected during restore.',
    'also when the load of the head fails: the run fails retryably having done nothing, or runs from the committed head loaded on a retry — never from a poisoned or stale pod-local cache',
  ],
  'R01.10': ['commit-protocol', 'Execute or resume the native harness against that head.'],
  'R01.11': ['commit-protocol', 'Do not automatically replay model or tool work.'],
  'R01.12': [
    'commit-protocol',
    'Execute or resume the native harness against that head.',
    'a resume answers the pending interrupt of that head and no other: a forged or already answered interrupt id is refused (or fails the run) without running, calling the model or moving the head',
  ],
  'R01.14': [
    'commit-protocol',
    'Execute or resume the native harness against that head.',
    'a resume supplies the value the pending interrupt returns (LangGraph: `Command(resume=value)`): in a run interrupted several times, or a thread whose runs ask the same question again, each continuation runs with the answer its own resume carries, and the head it commits holds it — never an earlier answer in its place',
  ],
  'R02.21': [
    'commit-protocol',
    'Execute or resume the native harness against that head.',
    'a resume continues exactly after its interrupt: the resumed run executes the steps after the interrupt, in order, none skipped or repeated — with an interrupt first, in the middle of a longer script, or followed by another interrupt',
  ],
  'R02.20': ['commit-protocol', "Compare-and-set the binding's durable head and revision."],
  'R03.30': [
    'thread-state-invariants',
    'Duplicate writes with the same idempotency key return the same pending/durable reference.',
  ],
  'R03.31': [
    'thread-state-invariants',
    'Duplicate writes with the same idempotency key return the same pending/durable reference.',
  ],
  'R03.32': [
    'thread-state-invariants',
    'Duplicate writes with the same idempotency key return the same pending/durable reference.',
    'as R03.17, at the entry bound: with one entry left, duplicates of the write that takes it, started in the same tick, all get its ref and the bound is then exactly reached — the count bound counts stored entries and a duplicate stores none, so `entry_limit` is never a duplicate’s answer (a `rate_limited` one is retried paced: the rate bound is R04.11’s)',
  ],
  'R04.30': [
    'thread-state-invariants',
    'Reads and writes require exact binding, epoch, adapter codec, and current lease generation.',
  ],
  'R04.32': [
    'thread-state-invariants',
    'Reads and writes require exact binding, epoch, adapter codec, and current lease generation.',
    'exact means exact strings: the binding’s own codec in another letter case, Unicode normalisation form (NFD/NFKC), full width, with whitespace around it (SP, TAB, LF, NBSP, ideographic space or a BOM in front; SP or TAB behind) or a trailing zero-width space, or as another version of it (`.0`, `.1`, `.1.2`, `-rc.1`, `+build.7`, `;v=2`, a trailing `/`, or the codec cut short by a character: no codec line, semver range or prefix), and its binding id in any of these but letter case and version (a UUID is case-insensitive, RFC 9562), is refused by load_head, write_native_state, commit_head, mark_uncertain, run_status and reconcile',
  ],
  'R04.31': [
    'thread-state-invariants',
    'Reads and writes require exact binding, epoch, adapter codec, and current lease generation.',
    'takeovers in flight together are still one bump each: every acknowledged takeover gets a generation of its own (two workers never share one), so the newest fences the rest',
  ],
  'R06.9': [
    'memory-write-pipeline',
    'Compare expected revision; reject conflict or invoke a declared consolidation policy.',
  ],
  'R06.20': [
    'memory-write-pipeline',
    'Compare expected revision; reject conflict or invoke a declared consolidation policy.',
  ],
  'R06.21': [
    'memory-write-pipeline',
    'Compare expected revision; reject conflict or invoke a declared consolidation policy.',
    "the consolidation policy's result passes step 2 as any write does (\"Validate key, kind, content type, size, and retention.\"): a consolidated record's content is valid for its content type (application/json parses), its type is one of its inputs', and two JSON inputs stay JSON; a policy that cannot merge such inputs answers a conflict or a rejection with a reason",
  ],
  'R07.14': [
    'memory-write-pipeline',
    'Redact prohibited secrets and reject permission/tool/network instructions that attempt to broaden authority.',
  ],
  'R07.15': ['memory-write-pipeline', 'Require human approval where the scope/path policy says so.'],
  'R07.16': ['memory-write-pipeline', 'Scan and classify content as untrusted model-produced context.'],
  'R07.17': [
    'memory-write-pipeline',
    'Redact prohibited secrets and reject permission/tool/network instructions that attempt to broaden authority.',
    'every secret in one field is kept out, not only the first (several in one sentence, one JSON string, one config block), and a secret known by its place on a line — a .pgpass line’s password, a .netrc line’s, an env file’s value — is kept out on whatever line of the content it is, not only when the line is the whole content, and whatever the password looks like: a plain word of letters is as much a password there as a random-looking token',
  ],
  'R07.18': ['memory-write-pipeline', 'Scan and classify content as untrusted model-produced context.'],
  'R07.19': ['conformance', 'memory injection, scope escalation, retention, approval, and deletion tests'],
  'R07.20': [
    'memory-write-pipeline',
    'Require human approval where the scope/path policy says so.',
    'an approval is one decision: two decisions of one pending write arriving together (approve with reject, or the same approval twice) end with exactly one taking effect — the record written once if approved, never written if rejected — and no answer claims the decision that did not happen',
  ],
  'R07.22': [
    'memory-write-pipeline',
    'Validate key, kind, content type, size, and retention.',
    'MemoryProposal.retentionSeconds: "Retention in seconds from now; omitted = the scope’s default policy" — a record written with retention omitted, in every writable scope, is kept until the expiresAt the target reports and gone after it from get, search and storage (as R07.19); an explicit retention — or the scope default a target declares in MemoryPolicy.defaultRetentionSeconds — is reported as that many seconds from the write, so reporting and enforcing cannot drift; an update’s retention runs from the update, not from the key’s creation',
  ],
  'R07.21': [
    'memory-write-pipeline',
    'Compare expected revision; reject conflict or invoke a declared consolidation policy.',
  ],
  'R07.24': [
    'memory-write-pipeline',
    'Scan and classify content as untrusted model-produced context.',
    'what is scanned is what is stored: JSON content that repeats a member name (at the top, in a nested object, in an array element) hides no secret or instruction in the copy a last-wins parser drops — the write is refused (I-JSON, RFC 7493 §2.3, forbids repeated names), or what is stored and returned holds neither',
  ],
  'R07.25': [
    'memory-write-pipeline',
    'Scan and classify content as untrusted model-produced context.',
    'episodic_reference: "never an automatic raw transcript copy", and operator-owned skills cannot be written through memory — rules that recognise these by their lines read every line break a reader does: a raw transcript or skill definition the target keeps out with LF lines is kept out with lines broken by a lone CR, CRLF, U+2028 or U+2029, as a note and inside a JSON string, and a credential-file line after such a break is kept out as R07.17 requires (the clause asks only for consistency with the target’s own LF verdict; refusing these breaks outright is conforming)',
  ],
  'R07.26': [
    'memory-write-pipeline',
    'Scan and classify content as untrusted model-produced context.',
    'a JSON record is text in every position, member names included (an agent reading the record back reads both): an instruction the target keeps out as a note is kept out as a member name, a nested member name, an array element, or split between a name and its value, and a secret token is kept out as a member name — refused, held for approval, or stored without it',
  ],
  'R07.27': [
    'memory-write-pipeline',
    'Redact prohibited secrets and reject permission/tool/network instructions that attempt to broaden authority.',
    'a value is a secret by the name it is under, in every naming convention: a plain-word value the target keeps out under "password" is kept out under dbPassword, DbPassword, db_password, DB_PASSWORD, db-password, db.password, smtpPassword, clientSecret and client_secret, at the top of a JSON record and nested, and (where "password: <word>" is kept out of a note) on a note’s settings lines',
  ],
  'R07.23': [
    'memory-write-pipeline',
    'Redact prohibited secrets and reject permission/tool/network instructions that attempt to broaden authority.',
    'an instruction stored as memory that would send data out (through an image or link a later answer renders, an outside endpoint, a trigger word, a link per character or a hostname built from the data), run a remote script, print a credential, or act on a consent nobody gave is a network, tool or permission instruction that broadens authority, however it is worded: each of the reported mechanisms (fixtures/corpora/reported-attacks.v2.ts) is rejected or held for approval; notes of the same shapes without an order are stored as written (R07.1’s rule for benign controls)',
  ],
  'R09.18': [
    'propagation',
    'Treat trace context only as correlation, never authentication or authorization.',
    'trace context never names or keys a run: a trusted caller’s runs on one binding sent in one continued trace — the same traceparent sent again (a client retrying its request), the same trace id under another parent-id, a run stopped at an interrupt and its resume in that trace — each end as their steps say (completed, or interrupted at the interrupt), with no error event and a durable revision above the one before, and each run started (not the resume, which may keep its run’s id) has its own run id; a run id or idempotency key derived from the caller’s trace id makes the second run a “duplicate” of the first',
  ],
  'R09.17': [
    'propagation',
    'Suppress internal context to untrusted external/provider endpoints unless explicitly configured.',
    'a redirect is a call to where it points: when the trusted internal service answers a continued trusted run’s internal call with 307, 308, 302 or 303 and a Location on another origin (the untrusted tool stub: another port is another origin, RFC 6454), whatever the target sends there carries no traceparent, tracestate or baggage; following the redirect or refusing it is the target’s choice',
  ],
  'R09.16': [
    'propagation',
    'Propagate context to the sandbox worker, ToolBroker, MemoryBroker, ThreadStateStore, subagents, and trusted internal services.',
    'W3C Trace Context: the random-trace-id flag (Level 2) asserts that the trace id was generated randomly — a vendor continuing a trace id it did not generate cannot know that when the parent did not say so; "Vendors MUST NOT make any other mutations to the traceparent header" than those listed, and setting the flag is none of them; a Level 1 vendor sets undefined flags to zero. So a continued trusted parent with flags 00 or 01 reaches the trusted internal service with the random flag unset (keeping or clearing a random flag received is R09.15’s, and a Level 1 target may clear it)',
  ],
  'R09.15': [
    'propagation',
    'Validate incoming `traceparent`; ignore or replace malformed/untrusted context according to ingress policy.',
    'W3C Trace Context: trace-flags is two hex digits; only sampled (bit 0) and random (bit 1, Level 2) are defined, the other bits reserved. Whether a target keeps the random flag is its level (a Level 1 target may clear it), so the kit compares a target with itself: a continued parent whose flags add reserved bits or hex letters gets the same random flag out as the same defined bits without them — a flags field read as decimal, or reserved bits read as defined ones, does not',
  ],
  'R09.9': [
    'propagation',
    'Validate incoming `traceparent`; ignore or replace malformed/untrusted context according to ingress policy.',
  ],
  'R09.10': [
    'propagation',
    'Validate incoming `traceparent`; ignore or replace malformed/untrusted context according to ingress policy.',
  ],
  'R08.14': [
    'propagation',
    'Generate child spans for control-plane and worker operations.',
    'a span of an operation records the operation: a provider call, and a tool call, the kit holds 400 ms from its arrival is recorded by a provider.invoke (tool.invoke) span at least as long as the stub measured the hold (less 25 ms for timers), so a span ended when its call starts (an un-awaited wrapper) records none of its call, its status or its errors',
  ],
  'R09.11': [
    'propagation',
    'Propagate context to the sandbox worker, ToolBroker, MemoryBroker, ThreadStateStore, subagents, and trusted internal services.',
    'baggage and tracestate are context too, in every form W3C lets a sender use (several header lines, whitespace around "=" and ",", properties after a value): each schema member and each tracestate member of a continued trusted context reaches the trusted internal service, tracestate members in the order received, in headers that are W3C-valid; of a list over W3C’s 512 characters a target keeps what it chooses (W3C’s truncation order is a SHOULD), but what it keeps stays in the order received (W3C §3.5: a vendor adds or updates its own member at the front or deletes; nothing else moves)',
  ],
  'R09.12': [
    'propagation',
    'Validate incoming `traceparent`; ignore or replace malformed/untrusted context according to ingress policy.',
    'the ingress policy trusts a credential, not a handle’s labels: a run started with the trusted internal service’s id, subject, organization and roles but another credential has its context replaced (or is refused), one with a credential that authenticates nobody is unauthenticated',
  ],
  'R09.13': [
    'propagation',
    'Suppress internal context to untrusted external/provider endpoints unless explicitly configured.',
    'a destination is trusted by its origin (scheme, host and port; RFC 6454), not by its text: a provider and tool whose URLs begin with the trusted internal service’s origin (a port whose digits extend the trusted port’s) receive no traceparent, tracestate or baggage, while the trusted service itself still receives the run’s context',
  ],
  'R09.14': [
    'propagation',
    'Validate incoming `traceparent`; ignore or replace malformed/untrusted context according to ingress policy.',
    'only OWS (SP / HTAB, RFC 9110 §5.6.3) around a field value is not part of it: a W3C-valid traceparent wrapped in other whitespace (NBSP, NEL, BOM, VT, FF, U+2028, U+3000) from a trusted caller is not a traceparent, so it is ignored and a new root started, never continued — judged where stock parsers agree (each among OWS on both sides; NEL alone at an end), not one other Unicode space alone at an end, which stock OpenTelemetry JS accepts',
  ],
  'R01.1': ['thread-state-invariants', 'Pod-local state is a cache and is never selected during restore.'],
  'R01.2': ['commit-protocol', "Compare-and-set the binding's durable head and revision."],
  'R01.3': [
    'commit-protocol',
    'Persist pending interrupt and terminal run metadata in the same logical commit where possible.',
  ],
  'R01.4': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
  ],
  'R01.5': ['thread-state-invariants', 'Pod-local state is a cache and is never selected during restore.'],
  'R01.6': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
  ],
  'R02.1': ['commit-protocol', 'Load the last durable head and revision.'],
  'R02.2': ['conformance', 'exact durable-head selection and rejection of pending/stale state'],
  'R02.3': ['commit-protocol', "Compare-and-set the binding's durable head and revision."],
  'R02.4': ['commit-protocol', "Compare-and-set the binding's durable head and revision."],
  'R02.5': ['commit-protocol', 'Write the native checkpoint/snapshot as pending, idempotently.'],
  'R02.6': [
    'commit-protocol',
    "Compare-and-set the binding's durable head and revision.",
    'the contract does not say how revisions count; the kit requires 1, 2, 3… so that "expected revision" has one meaning across implementations',
  ],
  'R02.7': [
    'thread-state-invariants',
    'Native payloads are opaque and versioned; no cross-harness translation is implied.',
  ],
  'R02.8': ['commit-protocol', 'Load the last durable head and revision.'],
  'R02.22': [
    'thread-state-invariants',
    'Native payloads are opaque and versioned; no cross-harness translation is implied.',
    'opaque bytes are the bytes given: `OpaqueStatePayload.bytes` is a Uint8Array, which may be a view into a larger buffer (a pooled Buffer, a subarray); the pending ref’s size and hash and the committed and loaded head carry exactly the view’s bytes, also once the caller reuses its buffer after the write resolved',
  ],
  'R02.9': ['commit-protocol', "Compare-and-set the binding's durable head and revision."],
  'R02.10': ['thread-state-invariants', "Clear creates a new epoch; old state cannot become the new epoch's head."],
  'R02.11': [
    'commit-protocol',
    'Persist pending interrupt and terminal run metadata in the same logical commit where possible.',
    'the head carries exactly the run state asked for and `run_status` of the run says the same state (also after an identical retry of the commit), a run is `interrupted` exactly when it carries an interrupt, and an interrupt value is bounded like payloads (contract/state.ts: “Opaque, harness-defined; bounded like payloads”; `maxPayloadBytes` is “in bytes”), so its size is its UTF-8 bytes: the bound the target applies to one-byte text holds for 2-, 3- and 4-byte characters too (one byte more than it is refused, however few UTF-16 units or code points that is; exactly the bound may commit — then unchanged — or be refused by a target that counts a larger encoding); a contradictory or oversized request is a typed refusal that commits nothing',
  ],
  'R02.23': [
    'commit-protocol',
    'Persist pending interrupt and terminal run metadata in the same logical commit where possible.',
    'an interrupt value is opaque (contract/state.ts: “Opaque, harness-defined”) and so is a payload: a value that looks like absence — an empty string, "0", "null", "false", a space, "[]", "{}", "undefined", a zero-byte payload — is committed and loaded exactly, the head `interrupted` with that interrupt, or refused with a typed error that commits nothing; never a head that says interrupted without its interrupt, or other bytes',
  ],
  'R02.24': [
    'commit-protocol',
    'Persist pending interrupt and terminal run metadata in the same logical commit where possible.',
    'the pending interrupt persisted is the one the run raised, and what the client is shown is what the run made: multi-byte text larger than a socket read (emitted texts of about 100 KB and 26 KB and an interrupt value of about 31 KB — at most half the declared payload bound — of 2-, 3- and 4-byte UTF-8 characters; a run refused or failed as payload_too_large is not run) reaches the output and interrupt events, the durable head’s pending interrupt and the resumed run’s output exactly — text decoded chunk by chunk rather than as one stream turns each character a chunk boundary splits into U+FFFD',
  ],
  'R03.1': [
    'thread-state-invariants',
    'Duplicate writes with the same idempotency key return the same pending/durable reference.',
  ],
  'R03.2': [
    'thread-state-invariants',
    'Duplicate writes with the same idempotency key return the same pending/durable reference.',
  ],
  'R03.17': [
    'thread-state-invariants',
    'Duplicate writes with the same idempotency key return the same pending/durable reference.',
    'as R03.2, with nothing ordering the duplicates: started in the same tick, they interleave inside the write, and one that passes the key lookup while another is inserting still gets the one stored ref — never a bound refusal far below every bound',
  ],
  'R03.3': [
    'thread-state-invariants',
    'Duplicate writes with the same idempotency key return the same pending/durable reference.',
    'a "duplicate" is the same key with the same bytes; the same key with other bytes is a refusal, never an overwrite, or a retry could change committed history',
  ],
  'R03.4': [
    'thread-state-invariants',
    'Duplicate writes with the same idempotency key return the same pending/durable reference.',
    'as R03.3, under concurrency',
  ],
  'R03.5': [
    'thread-state-invariants',
    'Duplicate writes with the same idempotency key return the same pending/durable reference.',
  ],
  'R03.6': [
    'thread-state-invariants',
    'Duplicate writes with the same idempotency key return the same pending/durable reference.',
  ],
  'R03.7': [
    'thread-state-invariants',
    'Duplicate writes with the same idempotency key return the same pending/durable reference.',
    'same-commit retry rule: a commit retry is "the same" only with the same pending ref, expected revision and run id; anything else is a conflict, or a lost-response retry could commit another run’s state',
  ],
  'R03.8': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
  ],
  'R03.9': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
    'mark_uncertain’s `reason` is a registered code, not free text: free text would carry prompts or secrets into durable run metadata',
  ],
  'R03.10': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
    'the contract requires "explicit reconciliation" without an operation; the kit’s `reconcile(keep_previous | commit_pending)` is that operation',
  ],
  'R03.11': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
    'as R03.10: commit_pending goes through the same compare-and-set as any commit',
  ],
  'R03.12': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
    'as R03.10: only an uncertain run has anything to reconcile — a run recorded completed, interrupted or failed (and a run never seen) is refused by keep_previous and by commit_pending, and neither its record nor the head (its pending interrupt included) changes',
  ],
  'R03.13': ['commit-protocol', 'Write the native checkpoint/snapshot as pending, idempotently.'],
  'R03.14': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
    'as R03.10: a reconciled run stays fenced; marking it again is `fenced` and changes nothing, or a re-opened run could be reconciled (and committed) a second time',
  ],
  'R03.15': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
    'the previous durable head is the one retained when the run was first marked: marking it again (another reason, a head moved since) keeps the first reason and retained revision',
  ],
  'R03.16': [
    'thread-state-invariants',
    'Duplicate writes with the same idempotency key return the same pending/durable reference.',
    'as R03.7 and R03.11: reconcile commit_pending of a commit that already landed (same pending, expected revision and run) is that commit’s retry: the run is resolved, the head does not move again; once the run is marked uncertain (“fence the run, and require explicit idempotency reconciliation”), a byte-identical `commit_head` retry of that landed commit is `fenced` until the reconciliation, never answered with the head (after it, fenced or answered as the landed commit, the head unmoved)',
  ],
  'R03.18': [
    'commit-protocol',
    'Only then report durable completion to the public protocol.',
    'a run reported completed, interrupted or completed on resume has a run record in that state with no uncertainty reason, and the durable head is its own: uncertain_durability answers an ambiguous crash, not output shown before a commit that landed',
  ],
  'R03.19': [
    'thread-state-invariants',
    'Duplicate writes with the same idempotency key return the same pending/durable reference.',
    'a key is an exact string: keys that differ only in letter case, Unicode form, width, a trailing space, a zero-width character or a lone surrogate are different keys, each with its own write; a key outside the target’s alphabet (a lone surrogate, the first key too) may be refused as invalid_argument, never folded into another',
  ],
  'R03.25': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
    'as R03.10: a crash in mark_uncertain or reconcile, retried, ends with the run reconciled once and the head moved at most once',
  ],
  'R03.26': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
    'as R03.10: a crash in mark_uncertain or reconcile, retried, ends with the run reconciled once and the head moved at most once',
  ],
  'R03.27': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
    'as R03.10: a crash in mark_uncertain or reconcile, retried, ends with the run reconciled once and the head moved at most once',
  ],
  'R03.34': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
    'the mark holds under a second fault: with the commit of a run that showed output failing once and the first mark_uncertain failing once too, the run is reported uncertain_durability, run_status through a new lease says uncertain_durability with a reason, the head is the one before, and keep_previous reconciles it — a mark made once, best effort, where the fault that failed the commit fails it too, leaves the run unfenced',
  ],
  'R03.35': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
    'the rule names no kind of failure: a commit after output refused with a definite code (payload_too_large, entry_limit, pending_not_found, invalid_argument) is handled as one refused with a retryable code (internal) — the run is reported uncertain_durability and recorded so, the head before is kept and keep_previous reconciles it; a target that retried a retryable refusal and committed the run’s own head is conforming too',
  ],
  'R03.33': [
    'commit-protocol',
    'Do not automatically replay model or tool work.',
    'step 1 ("Load the last durable head and revision") failing means step 2 has no head to execute against: a run or resume whose load fails shows no output and sends no model or tool request, and the head is unchanged — unless it loads the committed head on a retry and continues from it',
  ],
  'R03.28': [
    'commit-protocol',
    'If step 3 or 4 fails after client-visible output, mark the run `uncertain_durability`, retain the previous durable head, fence the run, and require explicit idempotency reconciliation.',
    'as R03.10: a crash in mark_uncertain or reconcile, retried, ends with the run reconciled once and the head moved at most once',
  ],
  'R04.1': [
    'thread-state-invariants',
    'Reads and writes require exact binding, epoch, adapter codec, and current lease generation.',
  ],
  'R04.2': [
    'thread-state-invariants',
    'Reads and writes require exact binding, epoch, adapter codec, and current lease generation.',
  ],
  'R04.3': [
    'threadstatestore',
    'The service derives it from authorized server-side state; a worker cannot broaden it.',
  ],
  'R04.4': [
    'thread-state-invariants',
    'Reads and writes require exact binding, epoch, adapter codec, and current lease generation.',
  ],
  'R04.5': ['thread-state-invariants', "Clear creates a new epoch; old state cannot become the new epoch's head."],
  'R04.6': [
    'thread-state-invariants',
    'Native payloads are opaque and versioned; no cross-harness translation is implied.',
    'codec registry: a binding has one codec; an unknown codec or a payload of another codec is refused, since "no cross-harness translation" leaves no other safe answer',
  ],
  'R04.7': [
    'threadstatestore',
    'The service derives it from authorized server-side state; a worker cannot broaden it.',
    'forged credentials: a scope is derived only from a credential the service issued; an unknown or forged one is unauthenticated, never a guess',
  ],
  'R04.8': [
    'thread-state-invariants',
    'Reads and writes require exact binding, epoch, adapter codec, and current lease generation.',
    TYPED,
  ],
  'R04.9': [
    'thread-state-invariants',
    'State size, entry count, and write rate are bounded.',
    'the bound is the target’s (`stateLimits`); the kit checks it is exact and answered with a typed error that stores nothing',
  ],
  'R04.10': [
    'thread-state-invariants',
    'State size, entry count, and write rate are bounded.',
    'as R04.9, for entry count',
  ],
  'R04.11': [
    'thread-state-invariants',
    'State size, entry count, and write rate are bounded.',
    'as R04.9, for write rate: after idling 2 s, 10 s or 60 s (the target’s clock advanced when it has one), a burst of three seconds’ budget is admitted at most rate × (1 + ⌈E⌉) writes over its window of E seconds — what a token bucket, a sliding window or a fixed per-second window admits — so idling banks no budget; and writes retried faster than the refill for two seconds, most of them refused, get at most rate × (1 + ⌈E⌉) accepted over their window (a refused write earns no budget)',
  ],
  'R04.12': [
    'thread-state-invariants',
    'Reads and writes require exact binding, epoch, adapter codec, and current lease generation.',
    MID_CALL,
  ],
  'R04.13': [
    'thread-state-invariants',
    "Clear creates a new epoch; old state cannot become the new epoch's head.",
    MID_CALL,
  ],
  'R04.14': [
    'thread-state-invariants',
    'Reads and writes require exact binding, epoch, adapter codec, and current lease generation.',
    TYPED,
  ],
  'R04.15': [
    'threadstatestore',
    'The service derives it from authorized server-side state; a worker cannot broaden it.',
    'a run is dispatched on the binding’s current scope: after clear the next run runs on the new epoch from no head (revision 1, nothing of the old epoch), and after a lease taken elsewhere the next run takes a new lease rather than failing on the superseded one',
  ],
  'R04.16': [
    'thread-state-invariants',
    'Reads and writes require exact binding, epoch, adapter codec, and current lease generation.',
    'marking a run uncertain and reconciling it are state writes, so "current" is judged when they take effect, as for a write or commit (R04.12/R04.13): one held inside the target while its lease is taken over or its epoch cleared is refused as a later one is, and neither fences nor resolves the run nor moves a head',
  ],
  'R04.17': [
    'thread-state-invariants',
    'State size, entry count, and write rate are bounded.',
    'the write-rate bound is the thread’s, i.e. the binding’s (`StateLimits.maxWritesPerSecond` is per binding): a new lease, the store of a new worker session or a run on the binding spends the same budget, so over any window the binding’s writes stay within rate × (1 + s), refill during the lease change included',
  ],
  'R04.18': [
    'thread-state-invariants',
    'State size, entry count, and write rate are bounded.',
    'as R04.17, for entry count and payload size: an entry bound reached under one lease is still reached under the next (per binding and epoch, so only a clear starts afresh), and the payload bound is the same for every lease',
  ],
  'R04.20': [
    'thread-state-invariants',
    'Reads and writes require exact binding, epoch, adapter codec, and current lease generation.',
  ],
  'R04.21': [
    'thread-state-invariants',
    'Reads and writes require exact binding, epoch, adapter codec, and current lease generation.',
  ],
  'R05.1': ['memory-scopes', 'The broker computes the namespace from authenticated context.'],
  'R05.2': ['memory-scopes', 'The broker computes the namespace from authenticated context.'],
  'R05.11': [
    'memory-scopes',
    'The broker computes the namespace from authenticated context.',
    'as R05.2, with the tenants’ calls in flight together: the namespace of a call comes from that call’s own credential, so what each side observes is what it observes alone',
  ],
  'R05.12': [
    'memory-scopes',
    'The broker computes the namespace from authenticated context.',
    'a Principal handle’s labels (id, subject, organization, roles) are not authenticated context, only its credential is: a handle with another identity’s labels reads and writes its credential’s owner’s namespaces in every scope (or is refused as unauthenticated or not permitted), never the labels’ — and one whose credential authenticates nobody is unauthenticated; a credential one slip from a real one (cut short, extended, one character changed, in other case unless it is hex) authenticates nobody',
  ],
  'R05.3': ['memory-scopes', 'A model or worker cannot supply another subject or organization.'],
  'R05.4': ['memory-scopes', 'A model or worker cannot supply another subject or organization.'],
  'R05.5': ['memory-scopes', 'Read-only unless shared learning is explicitly enabled'],
  'R05.6': ['memory-scopes', 'Read-only unless shared learning is explicitly enabled'],
  'R05.7': ['memory-scopes', 'Read-only; application/admin writes only'],
  'R05.8': [
    'memory-write-pipeline',
    'Search applies authorization and namespace filters before lexical/vector ranking.',
  ],
  'R05.9': [
    'memory-write-pipeline',
    'Results are bounded and retain provenance.',
    'every hit carries the full provenance `get` returns for its key — writer, agent, content hash, approval, times, findings, and a consolidated record’s sources and source revisions',
  ],
  'R05.13': [
    'memory-write-pipeline',
    'Search applies authorization and namespace filters before lexical/vector ranking. Results are bounded and retain provenance.',
    'rank, then bound: results come best first (scores never increase) and a search bounded below the number of matches returns the first k of the unbounded answer, records tied on score in any order; not judged where hits carry no scores or all score alike',
  ],
  'R05.14': [
    'memory-write-pipeline',
    'Search applies authorization and namespace filters before lexical/vector ranking. Results are bounded and retain provenance.',
    'filter, then bound: the bound counts the records a query answers, so a search filtered by kind (`MemoryQuery.kinds`), or one whose strongest matches were deleted, returns min(k, n) records of its own unbounded answer of n, never fewer because matches the filter drops (another kind, a deleted record) ranked above; R05.13’s rule for filtered queries, judged by count and membership, so it needs no scores',
  ],
  'R05.10': [
    'memory-write-pipeline',
    'Authorize scope, operation, agent, and caller.',
    `${TYPED}; an unregistered agent or unauthenticated caller is also granted no tool and no destination (a denial or that refusal), since memory and tools share the run's authority; another spelling of a registered agent id (case, NFC/NFD/NFKC, full-width, whitespace around it) is refused as unknown (forbidden) or acts exactly as that agent — same namespace both ways, no tool it lacks — never as an agent of its own ("The broker computes the namespace from authenticated context.")`,
  ],
  'R06.1': [
    'memory-write-pipeline',
    'Compare expected revision; reject conflict or invoke a declared consolidation policy.',
  ],
  'R06.2': [
    'memory-write-pipeline',
    'Compare expected revision; reject conflict or invoke a declared consolidation policy.',
  ],
  'R06.3': [
    'memory-write-pipeline',
    'Compare expected revision; reject conflict or invoke a declared consolidation policy.',
  ],
  'R06.4': [
    'memory-write-pipeline',
    'Compare expected revision; reject conflict or invoke a declared consolidation policy.',
  ],
  'R06.5': [
    'memory-write-pipeline',
    'Persist content plus provenance, source revisions, content hash, writer, approval, and audit record.',
  ],
  'R06.6': [
    'memory-write-pipeline',
    'Persist content plus provenance, source revisions, content hash, writer, approval, and audit record.',
  ],
  'R06.7': [
    'memory-write-pipeline',
    'Persist content plus provenance, source revisions, content hash, writer, approval, and audit record.',
  ],
  'R06.8': ['memory-write-pipeline', 'Require human approval where the scope/path policy says so.'],
  'R06.22': [
    'memory-write-pipeline',
    'Persist content plus provenance, source revisions, content hash, writer, approval, and audit record.',
    'an audit record is the record of its key: `Audit.memory(reader, { key })` names one exact key (keys are exact strings), so a read by key returns that key’s entries and no neighbour’s — not those of keys matching it as a LIKE/GLOB pattern, a regular expression, a prefix or in another letter case',
  ],
  'R06.23': [
    'memory-write-pipeline',
    'Persist content plus provenance, source revisions, content hash, writer, approval, and audit record.',
    'content is persisted as written and its hash is the one `contract/memory.ts` names, the lowercase hex sha-256 of the content: of its UTF-8 bytes, the encoding JSON and the protocol carry — checked on notes in Latin beyond Latin-1, Greek, Cyrillic, Hebrew and Arabic, CJK and emoji outside the BMP (each in NFC, so normalisation changes none), as put and as read, and on a consolidation whose proposal holds all of them; a note the target holds or refuses is not judged here',
  ],
  'R06.10': [
    'memory-write-pipeline',
    'Persist content plus provenance, source revisions, content hash, writer, approval, and audit record.',
  ],
  'R06.11': [
    'memory-write-pipeline',
    'Persist content plus provenance, source revisions, content hash, writer, approval, and audit record.',
    'provenance `createdAt` is when the key’s live record was created and is kept by every later update (plain, consolidating or approved); `updatedAt` is when its latest revision was written',
  ],
  'R06.12': [
    'memory-write-pipeline',
    'Compare expected revision; reject conflict or invoke a declared consolidation policy.',
    'step 6 follows step 5: a write held for approval is compared with the key when it is approved — after another write or a delete moved the key it is a conflict at the live revision (0 when nothing is live) that writes nothing, and a held write locks nothing, so the moves themselves land',
  ],
  'R06.13': [
    'memory-write-pipeline',
    'Persist content plus provenance, source revisions, content hash, writer, approval, and audit record.',
    CREDITED,
  ],
  'R06.14': [
    'memory-write-pipeline',
    'Persist content plus provenance, source revisions, content hash, writer, approval, and audit record.',
    CREDITED,
  ],
  'R06.15': [
    'memory-write-pipeline',
    'Persist content plus provenance, source revisions, content hash, writer, approval, and audit record.',
    CREDITED,
  ],
  'R07.1': [
    'memory-write-pipeline',
    'Redact prohibited secrets and reject permission/tool/network instructions that attempt to broaden authority.',
  ],
  'R07.2': [
    'memory-write-pipeline',
    'Redact prohibited secrets and reject permission/tool/network instructions that attempt to broaden authority.',
  ],
  'R07.3': ['memory-write-pipeline', 'Scan and classify content as untrusted model-produced context.'],
  'R07.4': [
    'memory-write-pipeline',
    'Redact prohibited secrets and reject permission/tool/network instructions that attempt to broaden authority.',
  ],
  'R07.5': ['memory-scopes', 'A model or worker cannot supply another subject or organization.'],
  'R07.6': ['memory-write-pipeline', 'Validate key, kind, content type, size, and retention.'],
  'R07.7': ['memory-write-pipeline', 'Require human approval where the scope/path policy says so.'],
  'R07.8': ['conformance', 'memory injection, scope escalation, retention, approval, and deletion tests'],
  'R07.9': [
    'memory-write-pipeline',
    'Memory cannot grant a tool, credential, model, sandbox profile, or network destination.',
    'the static policy must deny some probed tool and some probed destination: a target that allows every tool and host leaves memory nothing to grant, so the clause could not fail',
  ],
  'R07.10': [
    'memory-kinds',
    '`episodic_reference`: authorized summary/reference to prior thread state; never an automatic raw transcript copy.',
  ],
  'R07.11': ['memory-kinds', 'Operator-owned skills remain a separate, normally read-only source.'],
  'R07.12': [
    'memory-write-pipeline',
    'Validate key, kind, content type, size, and retention.',
    `${TYPED}; judged against the declared MemoryPolicy bounds ("Largest accepted content, in UTF-8 bytes (exactly this many is accepted)"): exactly at each bound is not refused for its size — content of maxContentBytes bytes in 1- to 4-byte characters, an ASCII key of maxKeyLength, a limit of maxSearchLimit (a write is written and read back unchanged, or answered by content policy: held for approval or rejected for what it says) — and one byte over is refused in every character width`,
  ],
  'R07.13': ['memory-write-pipeline', 'Validate key, kind, content type, size, and retention.', TYPED],
  'R08.1': ['required-span-topology', 'harness.request'],
  'R08.2': ['propagation', 'Generate child spans for control-plane and worker operations.'],
  'R08.9': [
    'propagation',
    'Generate child spans for control-plane and worker operations.',
    'each run’s child spans are generated under that run’s own spans also when runs are in flight together: a span’s parent comes from the context of the run it belongs to, never from whichever run is current in the process',
  ],
  'R08.3': [
    'export-and-failure-behavior',
    'Workers export only to the in-cluster OpenTelemetry Collector or a control-plane telemetry facade.',
  ],
  'R08.4': [
    'propagation',
    'Generate child spans for control-plane and worker operations.',
    'control plane and worker are told apart by their OpenTelemetry `service.name`, the only identity a trace backend can group by',
  ],
  'R08.5': [
    'propagation',
    'Validate incoming `traceparent`; ignore or replace malformed/untrusted context according to ingress policy.',
  ],
  'R08.6': [
    'propagation',
    'Propagate context to the sandbox worker, ToolBroker, MemoryBroker, ThreadStateStore, subagents, and trusted internal services.',
    SUBAGENT_STEPS,
  ],
  'R08.10': [
    'propagation',
    'Propagate context to the sandbox worker, ToolBroker, MemoryBroker, ThreadStateStore, subagents, and trusted internal services.',
    SUBAGENT_STEPS,
  ],
  'R08.11': [
    'propagation',
    'Propagate context to the sandbox worker, ToolBroker, MemoryBroker, ThreadStateStore, subagents, and trusted internal services.',
    'context propagated on a call is that call’s: every call to a trusted peer (the trusted internal service, tools it hosts) that carries trace context carries the run’s trace id and, as parent-id, the span of that call — its `tool.invoke`, or its own client span — never the run’s, a subagent’s or another call’s (W3C Trace Context §parent-id)',
  ],
  'R08.12': [
    'propagation',
    'Generate child spans for control-plane and worker operations.',
    'an operation that fails is an operation too: the span of a step that fails (a tool or provider answering HTTP 500, a memory write the caller may not make; not a tool never granted, which a target may refuse before invoking anything) is exported and ended, parented under `harness.run` as the required topology says, and does not claim success',
  ],
  'R08.13': [
    'propagation',
    'Generate child spans for control-plane and worker operations.',
    'the kit reads a trace after `Target.telemetry.flush()` ("Export what is queued"): the flush resolves only once the queued spans have reached the collector, so right after it — no polling, no wait — every span of a finished run is there',
  ],
  'R08.7': [
    'required-span-topology',
    'Link it to `harness.run` only when the provider integration supports safe, tenant-correct correlation.',
  ],
  'R08.8': [
    'required-span-topology',
    'Link it to `harness.run` only when the provider integration supports safe, tenant-correct correlation.',
  ],
  'R09.1': [
    'propagation',
    'Validate incoming `traceparent`; ignore or replace malformed/untrusted context according to ingress policy.',
  ],
  'R09.2': [
    'propagation',
    'Validate incoming `traceparent`; ignore or replace malformed/untrusted context according to ingress policy.',
  ],
  'R09.3': [
    'propagation',
    'Validate incoming `traceparent`; ignore or replace malformed/untrusted context according to ingress policy.',
  ],
  'R09.4': ['propagation', 'Treat trace context only as correlation, never authentication or authorization.'],
  'R09.5': [
    'attribute-and-baggage-policy',
    'Any allowed baggage key is schema-defined, bounded, opaque, and stripped before untrusted external calls.',
  ],
  'R09.6': [
    'propagation',
    'Suppress internal context to untrusted external/provider endpoints unless explicitly configured.',
  ],
  'R09.7': [
    'propagation',
    'Propagate context to the sandbox worker, ToolBroker, MemoryBroker, ThreadStateStore, subagents, and trusted internal services.',
  ],
  'R09.8': [
    'propagation',
    'Validate incoming `traceparent`; ignore or replace malformed/untrusted context according to ingress policy.',
    'malformed or oversized trace headers are dropped, never a reason to fail the request: context is correlation only',
  ],
  'R10.1': ['attribute-and-baggage-policy', 'Forbidden attributes, events, resource labels, and baggage include:'],
  'R10.6': [
    'export-and-failure-behavior',
    'Queues, batches, retry duration, and memory are bounded independently in workers and the control plane.',
  ],
  'R10.25': [
    'export-and-failure-behavior',
    'Queues, batches, retry duration, and memory are bounded independently in workers and the control plane.',
    'retry duration is measured at the socket against a hung collector: each export connection is closed by the exporter within the export timeout the target was created with (one export including its retries), and new attempts stop once it has passed',
  ],
  'R10.26': [
    'export-and-failure-behavior',
    'Queues, batches, retry duration, and memory are bounded independently in workers and the control plane.',
    "the bound holds for every span, whatever its status, kind or size, and is measured at the collector: with the collector black-holed, no flush asked and no export yet past the (long) export timeout, each telemetry identity has no more export requests open at once than the maxConcurrentExports (2) the target was created with (a batch processor exports one batch at a time; a target that also flushes holds to it through its exporter's limit), and the queue and batch it applies are the ones it declares: no export request, answered or held open, carries more spans of one identity than the maxQueueSize it was created with (a batch is taken from the queue; the OpenTelemetry SDK specification has maxExportBatchSize ≤ maxQueueSize), and once the collector answers again and the target's own schedule has had time to drain, then a flush, at most each identity's queue plus one batch (2 × maxQueueSize, summed over the identities) of the outage runs' spans are delivered besides those the held-open requests carried (a batch in flight at recovery may be sent again); and the bound holds under every workload that could exceed it: with the collector black-holed, runs each followed by a telemetry.flush() while the earlier exports hang (each flush takes a fresh batch), no identity has more than maxConcurrentExports (2) requests open at once",
  ],
  'R10.29': [
    'export-and-failure-behavior',
    'Collector outage may drop telemetry and raise a health signal; it does not change authorization, persistence, memory, cleanup, or run outcomes.',
    "the health signal, once raised, is cleared only by evidence newer than the loss — an export that started after it and succeeded: with two exports of one identity in flight, the older one's answer held while newer requests fail (500, not retried), the older one's late success does not bring the exporter back to ok while every newer request still fails; judged only when the target had the two in flight and raised the signal, and not when the raised signal clears on its own with nothing settling",
  ],
  'R10.30': [
    'export-and-failure-behavior',
    'Collector outage may drop telemetry and raise a health signal; it does not change authorization, persistence, memory, cleanup, or run outcomes.',
    "a full queue's loss is cleared only by evidence newer than the drop, as a failed export's is (R10.29): with every export's answer held until spans are dropped on the full queue, the held exports — all started before the drop — answered 200 while every newer request hangs do not bring the exporter back to ok; judged only when every held request arrived before the last health read without a drop, the drop raised the signal, and the raised signal does not clear on its own with nothing settling",
  ],
  'R10.27': [
    'export-and-failure-behavior',
    'Collector outage may drop telemetry and raise a health signal; it does not change authorization, persistence, memory, cleanup, or run outcomes.',
    'a span dropped for any cause is telemetry the outage dropped, a span a full export queue refused included (with the collector black-holed and no export yet past its timeout): a health read taken after droppedSpans grew reports the exporter degraded or failing until an export that started after the drop succeeds',
  ],
  'R10.28': [
    'export-and-failure-behavior',
    'Collector outage may drop telemetry and raise a health signal; it does not change authorization, persistence, memory, cleanup, or run outcomes.',
    "the health signal's accounting is exact and bounded: on every read 0 ≤ queueDepth ≤ queueCapacity, and droppedSpans and exportedSpans count since the target was created (never going down); once the target has settled after an outage that overflowed its queue (the collector answering again, the schedule drained, a flush), the queue reads empty, exportedSpans grew by exactly the spans the collector accepted, and each span the outage's runs sampled is counted exported or dropped (exported + dropped grew by runs × the spans one run samples, measured at the collector on drop-free baseline runs); and at no read has exportedSpans grown by more than the collector had accepted by then",
  ],
  'R10.31': [
    'export-and-failure-behavior',
    'Queues, batches, retry duration, and memory are bounded independently in workers and the control plane.',
    "retry duration is bounded per export, its retries included, by the export timeout the target was created with, and measured at the collector: with the collector black-holed (every request read, none answered), a request carrying a span an earlier request carried is an attempt of that span's export, and every request carrying a span is closed by the exporter within the export timeout (4 s) + 2 s of the span's first arrival — so a retry given a fresh timeout of its own shows, though each of its connections stays within the timeout (R10.25)",
  ],
  'R10.32': [
    'export-and-failure-behavior',
    'Collector outage may drop telemetry and raise a health signal; it does not change authorization, persistence, memory, cleanup, or run outcomes.',
    "the health signal is one for the target, and one identity's loss is not hidden by another's success: with every request carrying only the worker's spans answered 500 (not retried) and the control plane's answered 200, once droppedSpans grew no health read says ok (read after two such runs, then for 1.5 s) — a control-plane export that succeeded after the worker's failed is no evidence about the worker's lost spans (R10.27's rule, per identity); judged only when a worker-only request failed, a control-plane-only request succeeded after it and droppedSpans grew",
  ],
  'R10.33': [
    'export-and-failure-behavior',
    'Collector outage may drop telemetry and raise a health signal; it does not change authorization, persistence, memory, cleanup, or run outcomes.',
    'droppedSpans counts spans, not failed exports (contract/tracing.ts: “Sampled spans lost: refused by a full queue, or in an export that failed”): with the collector answering 500 (not retried) to two runs’ exports, each followed by a flush, then answering again and a further flush, droppedSpans grew by at least the distinct spans the collector refused and never accepted afterwards; judged only when it refused such a span',
  ],
  'R10.7': [
    'export-and-failure-behavior',
    'Audit/security decisions and durability outcomes remain durable even when traces are unsampled or dropped.',
  ],
  'R10.8': ['attribute-and-baggage-policy', 'Forbidden attributes, events, resource labels, and baggage include:'],
  'R10.9': [
    'attribute-and-baggage-policy',
    'provider stderr, native checkpoints, environment variables, or Kubernetes object bodies.',
  ],
};

/** R10's outage clauses (R10.2–5, R10.20+) and R03's commit-protocol failpoint clauses (R03.20+) share one sentence each. */
const FAMILIES: readonly (readonly [RegExp, Entry])[] = [
  [/^R03\.(2\d|[3-9]\d)$/, ['commit-protocol', 'Write the native checkpoint/snapshot as pending, idempotently.']],
  [
    /^R10\.([2-5]|2\d)$/,
    [
      'export-and-failure-behavior',
      'Collector outage may drop telemetry and raise a health signal; it does not change authorization, persistence, memory, cleanup, or run outcomes.',
    ],
  ],
];

export function clauseContract(id: string): ClauseContract {
  const e =
    CLAUSES[id] ??
    FAMILIES.find(([re]) => re.test(id))?.[1] ??
    REQUIREMENT[id.slice(0, 3) as RequirementId] ??
    REQUIREMENT.R01;
  return { anchor: e[0], sentence: e[1], ...(e[2] ? { interpretation: e[2] } : {}) };
}

/** Every explicitly mapped clause (for the consistency test). */
export function mappedClauses(): readonly string[] {
  return Object.keys(CLAUSES);
}
