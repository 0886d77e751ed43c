/**
 * SIGINT/SIGTERM during `smtc certify`: the first signal runs the clean stop once (processes,
 * instances, temporary data, a report marked interrupted) and exits 130 (SIGINT) or 143
 * (SIGTERM); a second signal exits at once with the same code.
 */
export const INTERRUPT_EXIT: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: 130, SIGTERM: 143 };

export function onInterrupt(stop: (signal: 'SIGINT' | 'SIGTERM') => Promise<void>): () => void {
  let stopping = false;
  const handler = (signal: 'SIGINT' | 'SIGTERM') => {
    if (stopping) process.exit(INTERRUPT_EXIT[signal]);
    stopping = true;
    process.stderr.write(`\nsmtc: ${signal}: stopping and cleaning up (send it again to exit at once)\n`);
    void stop(signal)
      .catch((e: unknown) => process.stderr.write(`smtc: cleanup failed: ${(e as Error).message}\n`))
      .finally(() => process.exit(INTERRUPT_EXIT[signal]));
  };
  const int = () => handler('SIGINT');
  const term = () => handler('SIGTERM');
  process.on('SIGINT', int);
  process.on('SIGTERM', term);
  return () => {
    process.off('SIGINT', int);
    process.off('SIGTERM', term);
  };
}
