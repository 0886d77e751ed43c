#!/usr/bin/env node
/**
 * Runs one of the reference's TypeScript entry points (`node run-entry.mjs ENTRY.ts args…`) as
 * precompiled JavaScript: an esbuild bundle of the entry's own modules (packages stay external)
 * in node_modules/.cache/smtc-entries, rebuilt when any of its source files changed. tsx's
 * loader compiled the same ~150 modules through its hooks at every spawn, seconds per process
 * on a loaded 2-core machine; the kit spawns a server and its workers for every target.
 * When no bundle can be made (esbuild absent, read-only cache), the entry runs through tsx.
 * Plain JavaScript: it is what runs before any TypeScript loader exists.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, 'node_modules/.cache/smtc-entries');

/** Each input as [path, size, mtime]: a bundle is current while every one is unchanged. */
function stamp(files) {
  return files.map((f) => {
    const s = statSync(f);
    return [f, s.size, s.mtimeMs];
  });
}

function current(bundle, inputsFile) {
  try {
    const recorded = JSON.parse(readFileSync(inputsFile, 'utf8'));
    statSync(bundle);
    return JSON.stringify(stamp(recorded.map((r) => r[0]))) === JSON.stringify(recorded);
  } catch {
    return false;
  }
}

/** Writes a file whole or not at all: concurrent spawns may build the same entry. */
function writeAtomic(file, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

async function build(entry, bundle, inputsFile) {
  const esbuild = await import('esbuild');
  // Bundled, every module would see the bundle's import.meta.url: each keeps its own source URL.
  const ownUrl = {
    name: 'own-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        return {
          contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
          loader: 'ts',
        };
      });
    },
  };
  const r = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: ROOT,
    plugins: [ownUrl],
  });
  const inputs = Object.keys(r.metafile.inputs).map((f) => path.resolve(ROOT, f));
  inputs.push(path.join(ROOT, 'tsconfig.json'));
  mkdirSync(CACHE, { recursive: true });
  writeAtomic(bundle, r.outputFiles[0].contents);
  writeAtomic(inputsFile, JSON.stringify(stamp(inputs)));
}

// --from-source: run through tsx, never a bundle (run-entry-command.ts says when and why).
const fromSource = process.argv[2] === '--from-source';
const given = process.argv[fromSource ? 3 : 2];
if (!given) {
  process.stderr.write('usage: node run-entry.mjs [--from-source] ENTRY.ts [args…]\n');
  process.exit(2);
}
const entry = path.resolve(given);
// The entry sees the command line it would have had run directly.
process.argv.splice(1, fromSource ? 3 : 2, entry);
const key = createHash('sha256').update(entry).digest('hex').slice(0, 16);
const bundle = path.join(CACHE, `${path.basename(entry, '.ts')}-${key}.mjs`);
const inputsFile = `${bundle}.inputs.json`;
let compiled = !fromSource && current(bundle, inputsFile);
if (!compiled && !fromSource) {
  try {
    await build(entry, bundle, inputsFile);
    compiled = true;
  } catch {
    compiled = false;
  }
}
if (compiled) await import(pathToFileURL(bundle).href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(entry).href);
}
