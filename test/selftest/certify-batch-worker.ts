/**
 * One long-lived `smtc certify` process for a batch of certifications (the mutant self-test): it
 * runs the CLI's own certify path — the same input parsing, pre-flight child, suite run and
 * reports — for each request it is sent over IPC, so a batch pays the CLI's start-up (tsx, vitest,
 * the kit's modules: seconds of CPU) once instead of once per certification.
 */
import { certify } from '../../cli/certify/certify-command.js';
import { certifyInputs } from '../../cli/certify/certify-inputs.js';
import { EXIT } from '../../cli/certify/exit-codes.js';

export interface BatchRequest {
  readonly id: number;
  readonly target: string;
  readonly only: string;
  readonly out: string;
}
export interface BatchAnswer {
  readonly id: number;
  readonly exitCode: number;
  /** The run was stopped (overrun, interrupt): this process exits after answering, as the CLI would. */
  readonly last: boolean;
}

if (!process.send) throw new Error('certify-batch-worker runs as a child with an IPC channel');
const send = process.send.bind(process);
// The test that started it is gone: nothing is left to answer.
process.on('disconnect', () => process.exit(0));
let queue = Promise.resolve();
process.on('message', (req: BatchRequest) => {
  queue = queue.then(async () => {
    let answer: BatchAnswer;
    try {
      const { settings, selection } = certifyInputs({
        target: req.target,
        only: req.only,
        // As the CLI's --require-all option reads it from the environment.
        requireAll: process.env.SMTC_REQUIRE_ALL_FLAG !== undefined,
      });
      const { exitCode, certification } = await certify({
        settings,
        selection,
        out: req.out,
        strict: false,
        quiet: true,
        provision: process.env.SMTC_NO_PROVISION !== '1',
        failFast: false,
      });
      answer = { id: req.id, exitCode, last: certification?.stopped !== undefined };
    } catch (e) {
      process.stderr.write(`smtc: ${(e as Error).message}\n`);
      answer = { id: req.id, exitCode: EXIT.unusable, last: false };
    }
    send(answer, undefined, undefined, () => {
      // A stopped run may hold handles for ever (the CLI exits then too).
      if (answer.last) process.exit(answer.exitCode);
    });
  });
});
