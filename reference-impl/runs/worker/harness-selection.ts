/**
 * Which native harness runs a binding's runs: chosen per run from the lease scope's harness id
 * and codec (the adapter and its version), as the contract puts both in the StateScope.
 */
import { LANGGRAPH_CODEC } from './langgraph/checkpoint-log.js';
import { SCRIPTED_CODEC } from './native-checkpoint.js';

export const DEEPAGENTS_HARNESS = 'deepagents';
/** The Deep Agents release the harness runs (package.json pins it). */
export const DEEPAGENTS_VERSION = 'deepagents-1.14.1';

export type HarnessKind = 'scripted' | 'deepagents';

/** The harness for a binding; null when the reference runs no harness for that pair. */
export function harnessFor(binding: { readonly harness: string; readonly codec: string }): HarnessKind | null {
  if (binding.harness === DEEPAGENTS_HARNESS) return binding.codec === LANGGRAPH_CODEC ? 'deepagents' : null;
  // Every other harness id runs the scripted harness on its own codec (the kit's suites' one).
  return binding.codec === SCRIPTED_CODEC ? 'scripted' : null;
}
