/** Raw bytes over TCP to a served target: requests no well-behaved HTTP client would send. */
import { connect } from 'node:net';

export interface RawAnswer {
  readonly status: number;
  readonly body: string;
}

/** The payload of a chunked body (what a streaming route answers with). */
function dechunk(body: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    const size = eol < 0 ? 0 : Number.parseInt(body.slice(at, eol), 16);
    if (!(size > 0)) return out;
    out += body.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/** Sends bytes, reads until the server closes the connection (bounded), parses the status line and body. */
export function rawHttp(baseUrl: string, bytes: string | Buffer, timeoutMs = 10_000): Promise<RawAnswer> {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {
      // a reset after the answer: what was read is the answer
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      const head = text.indexOf('\r\n\r\n');
      const body = head >= 0 ? text.slice(head + 4) : '';
      const chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head >= 0 ? text.slice(0, head) : '');
      resolve({ status, body: chunked ? dechunk(body) : body });
    });
    socket.write(bytes);
  });
}

/** Opens a request announcing a body, sends part of it, then resets the connection. */
export function abortMidBody(baseUrl: string, path: string, token: string): Promise<void> {
  const u = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(u.port), u.hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"spec":`,
        () => {
          socket.resetAndDestroy();
          resolve();
        },
      );
    });
    socket.on('error', () => resolve());
  });
}
