/**
 * The registry of named wire schemas: every schema registered here becomes a component of
 * the OpenAPI document (`openapi.ts`), so the document is generated from exactly the schemas
 * the server validates with and the adapter decodes with.
 */
import { z } from 'zod';

export interface ProtocolSchemaMeta {
  readonly id: string;
  readonly description?: string;
}

export const protocolSchemas = z.registry<ProtocolSchemaMeta>();

/** Register a schema under a component name and return it unchanged. */
export function named<S extends z.ZodType>(id: string, schema: S, description?: string): S {
  protocolSchemas.add(schema, description === undefined ? { id } : { id, description });
  return schema;
}
