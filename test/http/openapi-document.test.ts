/**
 * The checked-in OpenAPI document is exactly what the schemas generate (run `npm run openapi`
 * after changing a schema), and it describes every route of the route table.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, renderOpenApiDocument } from '../../contract/http/openapi.js';
import { protocolSchemas } from '../../contract/http/protocol-registry.js';
import { ROUTES, type RouteSpec } from '../../contract/http/routes.js';

const CHECKED_IN = new URL('../../contract/http/openapi.json', import.meta.url);

describe('HTTP target protocol: OpenAPI document', () => {
  it('the checked-in openapi.json equals the document generated from the schemas', () => {
    expect(readFileSync(CHECKED_IN, 'utf8')).toBe(renderOpenApiDocument());
  });

  it('every route appears with its method, security and registered schemas', () => {
    const doc = buildOpenApiDocument() as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string; security: unknown[]; responses: object }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const [id, r] of Object.entries(ROUTES) as [string, RouteSpec][]) {
      const op = doc.paths[r.path.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
      expect(op?.operationId, id).toBe(id);
      expect(op?.security.length, id).toBe(r.auth === 'none' ? 0 : 1);
      for (const s of [r.request, r.response]) {
        if (!s) continue;
        const meta = protocolSchemas.get(s);
        expect(meta, `${id} schema registered`).toBeDefined();
        expect(doc.components.schemas[meta!.id], `${id} component`).toBeDefined();
      }
    }
  });

  it('error responses carry the registry codes and the error body schema', () => {
    const doc = buildOpenApiDocument() as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    const op = doc.paths['/v1/thread-state/commit-head']!.post!;
    expect(op.responses['409']!.description).toContain('revision_conflict');
    expect(op.responses['413']!.description).toContain('payload_too_large');
    expect(op.responses['401']!.description).toContain('unauthenticated');
  });
});
