/**
 * The Deep Agents harness's chat model: @langchain/core's scripted `fakeModel` (no network
 * model), answering from the run's script. A run's steps reach the agent as one human message
 * (`SCRIPT_PREFIX` + JSON); each turn after that message calls the tool for the next step, and
 * the model answers plainly once the script is done. A step right before an interrupt is called
 * in the same turn as `ask_human` (the human is asked while it runs): LangGraph then runs both
 * as tasks of one super-step, and the finished step's pending writes are what a resume must
 * find so as not to run it again. Its answer depends only on the conversation
 * LangGraph hands it — which is restored from the durable head — so a new worker resuming the
 * thread gets the turns the lost worker would have got.
 */
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import type { RunStep } from '../../../../contract/runs.js';

export const SCRIPT_PREFIX = 'smtc-script:';
export const SUBAGENT_NAME = 'smtc-subagent';

/** The tool each step type is called through (the subagent goes through Deep Agents' `task`). */
export const STEP_TOOLS = {
  provider: 'call_provider',
  tool: 'call_tool',
  memory_read: 'read_memory',
  memory_write: 'write_memory',
  emit: 'emit_output',
  internal_call: 'call_internal_service',
  checkpoint: 'checkpoint',
  interrupt: 'ask_human',
} as const satisfies Record<Exclude<RunStep['type'], 'subagent'>, string>;

/** Model turns one run may take: the run bound's steps, plus steps left by an interrupt, plus the last turn. */
const MAX_TURNS = 2 * 256 + 2;

export function scriptMessage(steps: readonly RunStep[]): string {
  return `${SCRIPT_PREFIX}${JSON.stringify(steps)}`;
}

function textOf(m: BaseMessage): string {
  return typeof m.content === 'string' ? m.content : '';
}

/** The step the next turn performs, or null when the script is done. */
export function nextStep(
  messages: readonly BaseMessage[],
): { step: RunStep; index: number; after: RunStep | undefined } | null {
  let at = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.getType() === 'human' && textOf(m).startsWith(SCRIPT_PREFIX)) {
      at = i;
      break;
    }
  }
  if (at < 0) return null;
  const steps = JSON.parse(textOf(messages[at]!).slice(SCRIPT_PREFIX.length)) as RunStep[];
  const index = messages
    .slice(at + 1)
    .reduce((n, m) => n + (m.getType() === 'ai' ? ((m as AIMessage).tool_calls?.length ?? 0) : 0), 0);
  const step = steps[index];
  return step ? { step, index, after: steps[index + 1] } : null;
}

const isLeaf = (s: RunStep | undefined) =>
  s !== undefined && s.type !== 'subagent' && s.type !== 'checkpoint' && s.type !== 'interrupt';

function callOf(step: RunStep, index: number) {
  const id = `step-${index}`;
  if (step.type === 'subagent') {
    return { name: 'task', args: { description: scriptMessage(step.steps), subagent_type: SUBAGENT_NAME }, id };
  }
  return { name: STEP_TOOLS[step.type], args: { step: JSON.stringify(step) }, id };
}

/** A turn of the script: the tool call for the next step, or the closing answer. */
function turn(messages: BaseMessage[], stopped: () => boolean): BaseMessage {
  const next = stopped() ? null : nextStep(messages);
  if (!next) return new AIMessage('done');
  const { step, index, after } = next;
  const calls = [callOf(step, index)];
  if (isLeaf(step) && after?.type === 'interrupt') calls.push(callOf(after, index + 1));
  return new AIMessage({ content: '', tool_calls: calls });
}

/** `stopped`: a step failed — the model ends the agent instead of going on with the script. */
export function scriptModel(stopped: () => boolean) {
  const model = fakeModel();
  for (let i = 0; i < MAX_TURNS; i++) model.respond((messages) => turn(messages, stopped));
  return model;
}
