/**
 * Writes contract/http/openapi.json from the schemas (`npm run openapi`). The test in
 * test/http/openapi-document.test.ts fails when the checked-in file is out of date.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderOpenApiDocument } from './openapi.js';

const file = fileURLToPath(new URL('./openapi.json', import.meta.url));
writeFileSync(file, renderOpenApiDocument());
process.stdout.write(`wrote ${file}\n`);
