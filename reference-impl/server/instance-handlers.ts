/** Fresh target instances (test controls): create one with an env, destroy one by id. */
import { ContractError } from '../../contract/errors.js';
import { instancePath } from '../../contract/http/target-instances-protocol.js';
import { servedCapabilities } from './info-handlers.js';
import { manifestPrincipals } from './principal-directory.js';
import type { Handler, TargetInstances } from './route-handler.js';

function instancesOf(instances: TargetInstances | null): TargetInstances {
  if (instances === null) throw new ContractError('not_found', 'this server does not create target instances');
  return instances;
}

export const controlTargetsCreate: Handler<'controlTargetsCreate'> = async ({ instances, body, clientGone }) => {
  const { id, served } = await instancesOf(instances).create(body, clientGone);
  const t = served.target;
  return {
    id,
    path: instancePath(id),
    name: t.name,
    principals: manifestPrincipals(t.principals),
    agents: [t.principals.agents[0], t.principals.agents[1]],
    anonymousCredential: t.principals.anonymousCredential,
    adminToken: served.adminToken ?? '',
    // An instance serves its test controls (it exists only where they are enabled).
    capabilities: servedCapabilities(t, true),
  };
};

export const controlTargetsDelete: Handler<'controlTargetsDelete'> = async ({ instances, params }) => {
  await instancesOf(instances).destroy(params.id);
  return {};
};
