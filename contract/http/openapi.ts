/**
 * Builds the OpenAPI 3.1 document of the HTTP target protocol from the route table and the
 * registered wire schemas (zod → JSON Schema 2020-12, which OpenAPI 3.1 uses as is). The
 * checked-in `openapi.json` is this function's output; a test keeps the two equal.
 */
import { z } from 'zod';
import { ERROR_REGISTRY } from '../errors.js';
import './approvals-protocol.js';
import './audit-protocol.js';
import './bindings-protocol.js';
import { ErrorResponseSchema } from './error-protocol.js';
import { PROTOCOL_VERSION } from './info-protocol.js';
import './memory-protocol.js';
import { protocolSchemas } from './protocol-registry.js';
import { ROUTES, type RouteSpec } from './routes.js';
import './runs-protocol.js';
import './state-protocol.js';
import './target-instances-protocol.js';
import './telemetry-protocol.js';
import './test-controls-protocol.js';
import './tools-protocol.js';

type Json = Record<string, unknown>;

const COMPONENT = '#/components/schemas/';

function componentSchemas(): Record<string, Json> {
  const out = z.toJSONSchema(protocolSchemas, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `${COMPONENT}${id}`,
  }) as { schemas: Record<string, Json> };
  const schemas: Record<string, Json> = {};
  for (const id of Object.keys(out.schemas).sort()) {
    const { $schema: _s, $id: _i, ...rest } = out.schemas[id]!;
    schemas[id] = rest;
  }
  return schemas;
}

function refTo(schema: z.ZodType): Json {
  const meta = protocolSchemas.get(schema);
  if (!meta) throw new Error('every schema used by a route must be registered with named()');
  return { $ref: `${COMPONENT}${meta.id}` };
}

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}');
}

function security(r: RouteSpec): Json[] {
  switch (r.auth) {
    case 'none':
      return [];
    case 'principal':
      return [{ principalToken: [] }];
    case 'worker':
      return [{ leaseCredential: [] }];
    case 'admin':
      return [{ adminToken: [] }];
  }
}

/** Error statuses a route can answer with, from the registry, each with the error body. */
function errorResponses(r: RouteSpec): Record<string, Json> {
  const statuses = new Set<number>(Object.values(ERROR_REGISTRY).map((e) => e.status));
  if (r.auth === 'none') statuses.delete(401);
  const out: Record<string, Json> = {};
  for (const status of [...statuses].sort()) {
    const codes = Object.entries(ERROR_REGISTRY)
      .filter(([, e]) => e.status === status)
      .map(([code]) => code);
    out[String(status)] = {
      description: `Contract error (${codes.join(', ')})`,
      content: { 'application/json': { schema: refTo(ErrorResponseSchema) } },
    };
  }
  return out;
}

function operation(id: string, r: RouteSpec): Json {
  const op: Json = {
    operationId: id,
    summary: r.summary,
    tags: [r.tag],
    security: security(r),
  };
  if (r.params) {
    const params = z.toJSONSchema(r.params, { target: 'draft-2020-12', io: 'input' }) as {
      properties: Record<string, Json>;
    };
    op.parameters = Object.entries(params.properties).map(([name, schema]) => ({
      name,
      in: 'path',
      required: true,
      schema,
    }));
  }
  if (r.request) {
    const mediaType = r.bodyType === 'text' ? 'text/plain' : 'application/json';
    op.requestBody = { required: true, content: { [mediaType]: { schema: refTo(r.request) } } };
  }
  const ok =
    r.stream === 'ndjson'
      ? {
          description: 'NDJSON stream: one RunEvent per line, then a final { outcome } or { error } line',
          content: { 'application/x-ndjson': { itemSchema: refTo(r.response), schema: refTo(r.response) } },
        }
      : { description: 'OK', content: { 'application/json': { schema: refTo(r.response) } } };
  op.responses = { '200': ok, ...errorResponses(r) };
  return op;
}

export function buildOpenApiDocument(): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const [id, r] of Object.entries(ROUTES) as [string, RouteSpec][]) {
    const p = openApiPath(r.path);
    paths[p] ??= {};
    paths[p]![r.method.toLowerCase()] = operation(id, r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'smtc HTTP target protocol',
      version: PROTOCOL_VERSION,
      description:
        'The State, Memory, and Tracing Contract v1 over HTTP: one endpoint per contract operation, scopes derived ' +
        'server-side from bearer tokens, errors as { "error": { code, category, retryable, message } } with codes ' +
        'from the contract registry. Test controls live under /_smtc/ behind the admin token and an enable flag.',
    },
    servers: [{ url: 'http://127.0.0.1:8080' }],
    paths,
    components: {
      securitySchemes: {
        principalToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A principal credential (manifest principals).',
        },
        leaseCredential: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A worker lease credential (WorkerSession.credential) bound to binding + epoch + lease generation.',
        },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token of the test controls.' },
      },
      schemas: componentSchemas(),
    },
  };
}

/** The document as checked in (stable key order from construction, 2-space JSON, newline). */
export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
