/**
 * Helper process for the orphan test: creates the served reference (spawn mode) in a temp dir
 * given as argv[2], prints one JSON line with its process ids, and waits to be killed.
 */
import referenceOverHttp from '../../reference-impl/http-module-target.js';

const tempDir = process.argv[2]!;
const t = await referenceOverHttp.create({ tempDir });
const ids = await t.faults!.processIds!();
process.stdout.write(`${JSON.stringify(ids)}\n`);
setInterval(() => {}, 1_000);
