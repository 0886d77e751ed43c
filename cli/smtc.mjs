#!/usr/bin/env node
// Entry point: run the TypeScript CLI through tsx's loader (no build step to forget). Both
// hooks: a target author's .ts file outside a `"type": "module"` package is loaded as CommonJS.
import { register as registerCjs } from 'tsx/cjs/api';
import { register } from 'tsx/esm/api';

registerCjs();
register();
await import('./main.ts');
