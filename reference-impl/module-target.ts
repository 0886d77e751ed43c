/** The bundled reference implementation as a module target (embedded SQLite default). */
import type { TargetModule } from '../contract/target.js';
import { createReferenceTarget, type ReferenceTarget } from './reference-target.js';

const referenceModule: TargetModule = {
  name: 'smtc-reference',
  create: (env) => createReferenceTarget(env),
  destroy: (t) => (t as ReferenceTarget).close(),
};
export default referenceModule;
