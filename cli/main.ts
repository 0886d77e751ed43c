/** smtc command line: certify (and, as they land, serve / report / selftest). */
import { Command, InvalidArgumentError, Option } from 'commander';
import { isRequirementId, type RequirementId } from '../contract/requirements.js';
import { TargetLoadError } from '../fixtures/targets/load-target.js';
import { certify } from './certify/certify-command.js';

function parseOnly(value: string): RequirementId[] {
  const ids = value
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean)
    .map((s) => (/^R\d$/.test(s) ? `R0${s.slice(1)}` : s));
  for (const id of ids) {
    if (!isRequirementId(id)) throw new InvalidArgumentError(`unknown requirement "${id}" (expected R01..R10)`);
  }
  return ids as RequirementId[];
}

function parseInteger(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('must be an integer');
  return n;
}

function parseScale(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 100) throw new InvalidArgumentError('must be a number in (0, 100]');
  return n;
}

const program = new Command()
  .name('smtc')
  .description('Certify implementations of the State, Memory, and Tracing Contract v1')
  .showHelpAfterError();

program
  .command('certify')
  .description('run the requirement suites against a target and print the verdict per requirement')
  .option('-t, --target <path>', 'module target (default: the bundled reference on embedded SQLite)')
  .option('--only <ids>', 'comma-separated requirements to run, e.g. R02,R03', parseOnly)
  .option('-o, --out <dir>', 'directory for verdict.json, junit.xml and report.html', 'smtc-report')
  .option('--strict', 'exit 3 unless every requirement is certified (anything not run fails)', false)
  .addOption(
    new Option('--require-all', 'a scenario that cannot run here is a failure, not "not run" (CI)').env(
      'SMTC_REQUIRE_ALL_FLAG',
    ),
  )
  .option('--seed <n>', 'fast-check seed for every property (replay)', parseInteger)
  .option('--runs-scale <x>', 'multiply every property run budget by x', parseScale)
  .option('-q, --quiet', 'no per-scenario progress', false)
  .action(async (opts) => {
    try {
      const { exitCode } = await certify({
        target: opts.target,
        only: opts.only,
        out: opts.out,
        strict: Boolean(opts.strict),
        requireAll: Boolean(opts.requireAll) || process.env.SMTC_REQUIRE_ALL === '1',
        seed: opts.seed,
        runsScale: opts.runsScale,
        quiet: Boolean(opts.quiet),
      });
      process.exitCode = exitCode;
    } catch (e) {
      if (e instanceof TargetLoadError) {
        process.stderr.write(`smtc: ${e.message}\n`);
        process.exitCode = 2;
        return;
      }
      throw e;
    }
  });

await program.parseAsync(process.argv);
