/** Entry point run by run-entry.test.ts through reference-impl/run-entry.mjs: reports what it sees. */
import { fileURLToPath } from 'node:url';
import { WorkerReadySchema } from '../../reference-impl/runs/remote/worker-wire.js';

const typed: number = 1; // TypeScript syntax: this file only runs compiled
process.stdout.write(
  `${JSON.stringify({
    self: fileURLToPath(import.meta.url),
    argv: process.argv.slice(1),
    typed,
    schema: typeof WorkerReadySchema.safeParse,
  })}\n`,
);
