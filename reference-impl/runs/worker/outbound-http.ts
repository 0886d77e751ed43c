/**
 * The worker's outbound HTTP: JSON POSTs to the provider, tool and trusted-service endpoints
 * with undici, bounded in time and response size. Which trace headers go out is decided by the
 * propagation policy per destination URL — never by the caller of this client.
 */
import type { Context } from '@opentelemetry/api';
import { Agent, request } from 'undici';
import { ContractError } from '../../../contract/errors.js';

const MAX_RESPONSE_BYTES = 1024 * 1024;

/** Which trace headers a call carries (telemetry/propagation-policy.ts is the reference's). */
export interface OutboundPropagation {
  outboundHeaders(destination: URL, ctx: Context): Record<string, string>;
}

export class OutboundHttp {
  private readonly agent: Agent;

  constructor(
    private readonly policy: OutboundPropagation,
    private readonly timeoutMs: number,
  ) {
    this.agent = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  }

  /** POST JSON and return the parsed JSON answer; any failure is `unavailable` (no detail from the peer). */
  async postJson(url: URL, body: unknown, ctx: Context): Promise<unknown> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...this.policy.outboundHeaders(url, ctx),
    };
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw new ContractError('unavailable', 'endpoint unreachable');
    }
    const text = await readBounded(res.body);
    if (res.statusCode < 200 || res.statusCode > 299) throw new ContractError('unavailable', 'endpoint failed');
    if (text === null) throw new ContractError('unavailable', 'endpoint answer too large');
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ContractError('unavailable', 'endpoint answer is not JSON');
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

async function readBounded(body: AsyncIterable<Buffer | Uint8Array>): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) return null;
      chunks.push(Buffer.from(chunk));
    }
  } catch {
    throw new ContractError('unavailable', 'endpoint answer interrupted');
  }
  return Buffer.concat(chunks).toString('utf8');
}
