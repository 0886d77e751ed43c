/**
 * What each category's canary looks like: shaped like the real thing (a GitHub-style token, an
 * OpenAI-style key, a Python traceback, a Kubernetes Secret …) so a scrubber that recognises
 * real secrets by shape gets no easier test, with the canary's unique marker inside verbatim
 * (the person name carries it capitalised, which only a case-folded search finds). Several
 * shapes include quotes, newlines and non-ASCII so their JSON-escaped form differs from raw.
 */
import type { ForbiddenCategory } from './forbidden-categories.js';

export type Random = (alphabet: string, length: number) => string;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const CANARY_SHAPES: Readonly<Record<ForbiddenCategory, (marker: string, rnd: Random) => string>> = {
  bearer_token: (m, r) => `ghp_${m}${r(ALNUM, 16)}`,
  api_key: (m, r) => `sk-${m}T3BlbkFJ${r(ALNUM, 20)}`,
  cookie: (m, r) => `sessionid=${m}${r(ALNUM, 12)}; csrftoken=${r(ALNUM, 32)}`,
  authorization_header: (m, r) => `Basic ${m}${r(ALNUM, 12)}`,
  subject: (m, r) => `auth0|${m}${r(HEX, 4)}`,
  email: (m) => `ada.${m}@example.com`,
  person_name: (m) => `Ada ${capitalise(m)} Lovelace`,
  prompt: (m) =>
    `You are a helpful assistant.\nSummarize the confidential memo "${m}" for the board and don't mention layoffs.`,
  message_text: (m) => `Hi Jamie — the wire transfer code is ${m}; see you at 5 ☕`,
  reasoning: (m) => `<thinking>The user probably means account ${m}. I should verify before answering…</thinking>`,
  memory_body: (m) => `User prefers aisle seats; frequent-flyer number ${m}.`,
  tool_arguments: (m) => `{"query":"SELECT * FROM accounts WHERE token = '${m}'","limit":5}`,
  tool_result: (m) => `{"rows":[{"id":7,"ssn_hash":"${m}","owner":"Ada"}],"count":1}`,
  file_body: (m) => `# quarterly-forecast.md\n\nRevenue target: ${m}\n\t- draft, do not circulate\n`,
  protected_skill: (m) =>
    `---\nname: incident-escalation\ndescription: internal only\n---\n# Escalation runbook\n1. Page the on-call with code ${m}\n`,
  provider_stderr: (m) =>
    `Traceback (most recent call last):\n  File "/srv/provider/server.py", line 88, in handle\nKeyError: '${m}'\n`,
  environment_variable: (m) => `postgres://svc_app:${m}@db.internal:5432/app`,
  native_checkpoint: (m) =>
    `{"v":4,"ts":"2024-01-01T00:00:00Z","channel_values":{"messages":[{"type":"human","content":"${m}"}]}}`,
  kubernetes_object: (m) =>
    `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"db-creds","namespace":"prod"},"data":{"password":"${m}"}}`,
};
