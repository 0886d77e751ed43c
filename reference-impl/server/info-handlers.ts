/** Info and whoami: what the served target declares (capabilities, harnesses), and who a principal token is. */
import { PROTOCOL_VERSION } from '../../contract/http/info-protocol.js';
import type { Capabilities, Target } from '../../contract/target.js';
import type { Handler } from './route-handler.js';

/** Capabilities as reachable over this server: test-control ones need the controls enabled. */
export function servedCapabilities(target: Target, testControls: boolean): Capabilities {
  return {
    ...target.capabilities,
    settableClock: Boolean(target.capabilities.settableClock && target.clock && testControls),
    failpoints: Boolean(target.capabilities.failpoints && target.faults && testControls),
    reconciliationFailpoints: Boolean(target.capabilities.reconciliationFailpoints && target.faults && testControls),
    // Worker process faults are test controls; the control plane's own are its supervisor's.
    processFaults: Boolean(target.capabilities.processFaults && target.faults?.killPart && testControls),
    // The proxies of its own links are named through a test control.
    networkFaults: Boolean(target.capabilities.networkFaults && target.faults?.networkLinks && testControls),
    // Storage inspection is a test control.
    storageInspection: Boolean(target.capabilities.storageInspection && target.storage && testControls),
    // Telemetry needs flush, which is a test control.
    telemetry: Boolean(target.capabilities.telemetry && target.telemetry && testControls),
  };
}

/** The native harnesses the served target declares (`Target.harnesses`), as a fresh array. */
export function servedHarnesses(target: Target): { harnesses?: string[] } {
  return target.harnesses ? { harnesses: [...target.harnesses] } : {};
}

export const info: Handler<'info'> = async ({ target, testControls, instances }) => ({
  protocol: PROTOCOL_VERSION,
  name: target.name,
  capabilities: servedCapabilities(target, testControls),
  ...servedHarnesses(target),
  testControls,
  instances: instances !== null,
  agents: [target.principals.agents[0], target.principals.agents[1]],
  ...(target.stateLimits ? { stateLimits: target.stateLimits } : {}),
  ...(target.memoryPolicy ? { memoryPolicy: target.memoryPolicy } : {}),
});

export const principalSelf: Handler<'principalSelf'> = async ({ principal }) => ({
  id: principal.id,
  subject: principal.subject,
  organization: principal.organization,
  roles: [...principal.roles],
});
