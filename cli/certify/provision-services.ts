/**
 * Before the suites start, `smtc certify` gets each service the selection needs (Toxiproxy; the
 * linearizability checker) — found, or built into the cache with a progress line — so a first
 * run ends in a verdict on everything. The suites then find the same binaries through the same
 * lookup. What cannot be had is said once here, with the command that fixes it; its scenarios
 * say "not run" (a failure under --require-all). `--no-provision` builds nothing.
 */
import { findHistoryChecker } from '../../fixtures/history/history-checker.js';
import { dockerReachable } from '../../fixtures/services/docker-reachable.js';
import { HISTORY_CHECK_REQUIREMENTS } from '../../fixtures/services/kit-services.js';
import { provisionBinary } from '../../fixtures/services/provision-binary.js';
import { BINARY_SERVICES } from '../../fixtures/services/service-binaries.js';
import { terminalLine } from '../report/terminal-text.js';

export async function provisionForSelection(
  requirements: readonly string[],
  o: { readonly provision: boolean; readonly out: (line: string) => void },
): Promise<void> {
  const selected = new Set(requirements);
  let docker: Promise<boolean> | undefined;
  for (const s of BINARY_SERVICES) {
    if (!s.requirements.some((r) => selected.has(r))) continue;
    const p = await provisionBinary(s, {
      build: o.provision,
      docker: () => {
        docker ??= dockerReachable();
        return docker;
      },
      progress: (line) => o.out(terminalLine(line)),
    });
    if (p.kind === 'missing' || p.kind === 'buildable') {
      const why =
        p.kind === 'missing' ? `${p.reason}; fix: ${p.fix}` : 'not found, and provisioning is off (--no-provision)';
      o.out(terminalLine(`smtc: ${s.title} not available, its scenarios will be not run: ${why}`));
    }
  }
  if (o.provision && HISTORY_CHECK_REQUIREMENTS.some((r) => selected.has(r))) {
    const c = await findHistoryChecker();
    if (!c.available)
      o.out(terminalLine(`smtc: history-check not available, its clauses will be not run: ${c.reason}`));
  }
}
