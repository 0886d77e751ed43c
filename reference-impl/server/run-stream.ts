/**
 * `POST /v1/runs`: the run's events go to the client as NDJSON lines the moment the target
 * emits them (the client-visible output of the commit protocol), then one final line with the
 * outcome or the error. A failure before the first event is an ordinary JSON error response
 * with its registry status, exactly like any other route.
 */
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { ContractError } from '../../contract/errors.js';
import { RunEventSchema, RunOutcomeSchema } from '../../contract/http/runs-protocol.js';
import type { Principal } from '../../contract/principals.js';
import type { RunEvent, RunRequest } from '../../contract/runs.js';
import type { Target } from '../../contract/target.js';
import { type ErrorLog, replyFor } from './error-reply.js';
import { required } from './route-handler.js';

export async function streamRun(
  target: Target,
  caller: Principal,
  request: RunRequest,
  raw: ServerResponse,
  log: ErrorLog,
  onFailure: (e: unknown) => void,
): Promise<void> {
  let started = false;
  let encodeFailure: unknown = null;
  // A client that went away must not crash the server; the run itself carries on.
  raw.on('error', () => {});
  const writeLine = (line: unknown): void => {
    if (!started) {
      raw.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' });
      started = true;
    }
    raw.write(`${JSON.stringify(line)}\n`);
  };
  const onEvent = (e: RunEvent): void => {
    // Never throw into the target's run: a malformed event is reported once the run is over.
    if (encodeFailure !== null) return;
    try {
      writeLine(z.encode(RunEventSchema, e));
    } catch (err) {
      encodeFailure = err;
    }
  };
  try {
    const outcome = await required(target.runs).start(caller, request, onEvent);
    if (encodeFailure !== null) throw encodeFailure;
    writeLine({ outcome: z.encode(RunOutcomeSchema, outcome as z.output<typeof RunOutcomeSchema>) });
  } catch (e) {
    onFailure(e);
    const { status, body } = replyFor(e instanceof z.ZodError ? new ContractError('internal') : e, 'runsStart', log);
    if (!started) {
      raw.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      raw.end(JSON.stringify(body));
      return;
    }
    writeLine(body);
  }
  raw.end();
}
