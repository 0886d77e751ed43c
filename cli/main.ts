/** smtc command line: certify (and, as they land, serve / report / selftest). */
import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_HARNESS, HARNESS_IDS, LIMITS } from '../fixtures/settings/run-settings.js';
import { TargetLoadError } from '../fixtures/targets/load-target.js';
import { certify } from './certify/certify-command.js';
import { certifyInputs } from './certify/certify-inputs.js';
import { EXIT } from './certify/exit-codes.js';
import { PROFILES } from './certify/profiles.js';
import { doctor } from './doctor-command.js';
import { terminalText } from './report/terminal-text.js';
import { serve } from './serve-command.js';
import { runW3CReferee } from './w3c-command.js';

function parseInteger(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('must be an integer');
  return n;
}

function parseHttpUrl(v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new InvalidArgumentError('expected an http(s) URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new InvalidArgumentError('expected an http(s) URL');
  return v;
}

const program = new Command()
  .name('smtc')
  .description('Certify implementations of the State, Memory, and Tracing Contract v1')
  .showHelpAfterError('(add --help for usage)')
  // A usage error (unknown option, bad value) exits with the "could not be used" code, never 1 (= failed).
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : EXIT.unusable));

program
  .command('certify')
  .description('run the requirement suites against a target and print the verdict per requirement')
  .option(
    '-t, --target <path>',
    'module target, manifest file or URL (default: the bundled reference on embedded SQLite, served as processes; reference-impl/module-target.ts is the same reference in-process)',
  )
  .option('-m, --manifest <file>', 'manifest of an HTTP target given as --target http://…')
  .option(
    '--profile <name>',
    `a named selection: ${PROFILES.map((p) => `${p.name}@${p.version}`).join(', ')} (default: full)`,
  )
  .option('--only <ids>', 'comma-separated requirements and clauses to run, e.g. R02,R03.3')
  .option('--replay <token>', 'replay exactly the one failed clause a replay token names (printed with the failure)')
  .option('-o, --out <dir>', 'directory for verdict.json, junit.xml and report.html', 'smtc-report')
  .option('--strict', 'exit 3 unless every selected requirement is certified (anything not run fails)', false)
  .addOption(
    new Option(
      '--require-all',
      'a service the kit needs but cannot find (Toxiproxy, FerretDB, a browser) fails instead of being "not run" (CI); scenarios a target does not support stay "not run"',
    ).env('SMTC_REQUIRE_ALL_FLAG'),
  )
  .option(
    '--harness <id>',
    `the native harness every binding is opened with (its codec follows): ${HARNESS_IDS.join(', ')} (default: ${DEFAULT_HARNESS}, or SMTC_HARNESS)`,
  )
  .option('--seed <n>', 'fast-check seed for every property')
  .option(
    '--runs-scale <x>',
    `multiply every property run budget by x, in (${LIMITS.runsScale.min}, ${LIMITS.runsScale.max}]`,
  )
  .option('-q, --quiet', 'no per-scenario progress', false)
  .option(
    '--fail-fast',
    'stop once every selected requirement has a failed clause (the rest is "not run"): a quick answer for a target expected to fail',
    false,
  )
  .option(
    '--no-provision',
    'never build a missing service (Toxiproxy, the history checker) into the cache; its scenarios are not run (or SMTC_NO_PROVISION=1)',
  )
  .action(async (opts) => {
    try {
      const provision = opts.provision !== false && process.env.SMTC_NO_PROVISION !== '1';
      // The suites' own lookups (the history checker's build on first use) read it too.
      if (!provision) process.env.SMTC_NO_PROVISION = '1';
      const { settings, selection } = certifyInputs(opts);
      const { exitCode } = await certify({
        settings,
        selection,
        out: opts.out,
        strict: Boolean(opts.strict),
        quiet: Boolean(opts.quiet),
        provision,
        failFast: Boolean(opts.failFast),
      });
      process.exitCode = exitCode;
    } catch (e) {
      // Bad usage, a target that cannot be loaded, a bad manifest, or a target that does not match it.
      const usage = [
        'UsageError',
        'SettingsError',
        'TargetLoadError',
        'ManifestError',
        'TargetVerificationError',
        'StaticTargetEnvError',
        'SpawnError',
        'TargetUnreachableError',
      ];
      if (e instanceof TargetLoadError || (e instanceof Error && usage.includes(e.name))) {
        process.stderr.write(`smtc: ${terminalText((e as Error).message)}\n`);
        process.exitCode = EXIT.unusable;
        return;
      }
      throw e;
    }
  });

program
  .command('doctor')
  .description(
    'list every service the kit can use (Toxiproxy, FerretDB, the history checker, Chromium), where it is or how it would be provisioned, and its version; exit 1 when the selection cannot be fully run',
  )
  .option('--profile <name>', 'the selection to check, as for certify (default: full)')
  .option('--only <ids>', 'comma-separated requirements and clauses, as for certify')
  .option('--all', "also the services only the kit's own tests use (FerretDB, Chromium): what CI needs", false)
  // One attribute: --provision sets it true, --no-provision false, neither leaves it undefined.
  .option('--provision', 'build what is missing now, into the cache (SMTC_CACHE_DIR, default ~/.cache/smtc)')
  .option('--no-provision', 'never build: a service not found is missing (or SMTC_NO_PROVISION=1)')
  .option(
    '--exports',
    "print `export NAME='path'` lines for the binaries found (stdout; the report goes to stderr)",
    false,
  )
  .action(async (opts) => {
    try {
      process.exitCode = await doctor({
        ...opts,
        provision: opts.provision === true,
        provisioning: opts.provision !== false,
      });
    } catch (e) {
      if (!(e instanceof Error && e.name === 'UsageError')) throw e;
      process.stderr.write(`smtc: ${terminalText(e.message)}\n`);
      process.exitCode = EXIT.unusable;
    }
  });

program
  .command('w3c')
  .description(
    "run W3C's own Trace Context harness (vendored, unmodified; Python 3 with aiohttp) at Level 1 and 2 against a target: exit 1 when either level fails",
  )
  .option('-t, --target <path>', 'module target, manifest file or URL, as for certify (default: the bundled reference)')
  .option('-m, --manifest <file>', 'manifest of an HTTP target given as --target http://…')
  .action(async (opts: { target?: string; manifest?: string }) => {
    const args = [
      ...(opts.target !== undefined ? ['--target', opts.target] : []),
      ...(opts.manifest !== undefined ? ['--manifest', opts.manifest] : []),
    ];
    process.exitCode = await runW3CReferee(args);
  });

program
  .command('serve')
  .description('run the reference as processes (control plane + sandbox workers), print its URL, write a manifest')
  .option('--host <host>', 'listen address (loopback unless --allow-non-loopback)', '127.0.0.1')
  .option('--allow-non-loopback', 'allow a --host that is reachable from other machines', false)
  .option('-p, --port <n>', 'port (0 = any free port)', parseInteger, 8080)
  .option('-d, --data-dir <dir>', 'data directory (SQLite, worker slots, credentials)', 'smtc-data')
  .option('-w, --workers <n>', 'sandbox worker processes (0 = in-process worker)', parseInteger, 2)
  .option('--manifest-out <file>', 'where to write the manifest (default: <data-dir>/manifest.json)')
  .option('--enable-test-controls', 'serve the /_smtc/ test controls (failpoints, clock, process faults)', false)
  .option('--collector-url <url>', 'OTLP/HTTP traces endpoint to export to', parseHttpUrl)
  .option('--provider-url <url>', 'model provider endpoint (scripted/v1 protocol)', parseHttpUrl)
  .option('--tool-url <url>', 'tool endpoint (scripted/v1 protocol)', parseHttpUrl)
  .option('--trusted-service-url <url>', 'trusted internal service endpoint', parseHttpUrl)
  .option(
    '--toxiproxy-url <url>',
    'Toxiproxy API to put the worker → control-plane link behind (network faults)',
    parseHttpUrl,
  )
  .action(async (opts) => {
    if (opts.port < 0 || opts.port > 65_535) throw new InvalidArgumentError('--port must be in 0..65535');
    if (opts.workers < 0 || opts.workers > 16) throw new InvalidArgumentError('--workers must be in 0..16');
    let s: Awaited<ReturnType<typeof serve>>;
    try {
      s = await serve({
        host: opts.host,
        port: opts.port,
        dataDir: opts.dataDir,
        workers: opts.workers,
        enableTestControls: Boolean(opts.enableTestControls),
        allowNonLoopback: Boolean(opts.allowNonLoopback),
        ...(opts.manifestOut ? { manifestOut: opts.manifestOut } : {}),
        ...(opts.collectorUrl ? { collectorUrl: opts.collectorUrl } : {}),
        ...(opts.providerUrl ? { providerUrl: opts.providerUrl } : {}),
        ...(opts.toolUrl ? { toolUrl: opts.toolUrl } : {}),
        ...(opts.trustedServiceUrl ? { trustedServiceUrl: opts.trustedServiceUrl } : {}),
        ...(opts.toxiproxyUrl ? { toxiproxyUrl: opts.toxiproxyUrl } : {}),
      });
    } catch (e) {
      // A refused option (e.g. a non-loopback --host): one line, exit 2, no stack.
      if (!(e instanceof InvalidArgumentError)) throw e;
      process.stderr.write(`smtc serve: ${e.message}\n`);
      process.exitCode = 2;
      return;
    }
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      setTimeout(() => process.exit(0), 10_000).unref();
      void s.close().finally(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

await program.parseAsync(process.argv);
