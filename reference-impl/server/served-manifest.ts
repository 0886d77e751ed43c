/**
 * The manifest a served target writes for itself: its URL, the test identities with their
 * tokens, the admin token, its capabilities as reachable over HTTP, the native harnesses it
 * runs, and the URLs it was
 * started with. It is what `smtc certify --target URL --manifest FILE` reads.
 */
import type { HttpTargetManifest } from '../../contract/http/manifest.js';
import { HARNESS_IDS, type HarnessEnv, type Target } from '../../contract/target.js';
import { servedCapabilities } from './info-handlers.js';
import { manifestPrincipals } from './principal-directory.js';

export function servedManifest(
  target: Target,
  url: string,
  opts: { adminToken: string; testControls: boolean; env: HarnessEnv },
): HttpTargetManifest {
  const principals = manifestPrincipals(target.principals);
  const { collectorUrl, providerUrl, toolUrl, trustedServiceUrl } = opts.env;
  return {
    manifestVersion: 1,
    name: target.name,
    baseUrl: url,
    principals,
    agents: [target.principals.agents[0], target.principals.agents[1]],
    anonymousCredential: target.principals.anonymousCredential,
    adminToken: opts.adminToken,
    capabilities: servedCapabilities(target, opts.testControls),
    // A manifest names only the harness ids the kit knows; the info endpoint serves them all.
    ...(target.harnesses ? { harnesses: HARNESS_IDS.filter((h) => target.harnesses?.includes(h)) } : {}),
    telemetry: collectorUrl ? { collectorUrl } : {},
    env: {
      ...(providerUrl ? { providerUrl } : {}),
      ...(toolUrl ? { toolUrl } : {}),
      ...(trustedServiceUrl ? { trustedServiceUrl } : {}),
    },
  };
}
