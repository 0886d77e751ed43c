#!/usr/bin/env node
// Entry point: run the TypeScript CLI through tsx's loader (no build step to forget).
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
