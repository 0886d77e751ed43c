/**
 * The Deep Agents harness's chat model: @langchain/core's scripted `fakeModel` (no network
 * model), answering from the run's script. A run's steps reach the agent as one human message
 * (`SCRIPT_PREFIX` + JSON); the model's n-th turn after that message calls the tool for step n,
 * and it answers plainly once the script is done. Its answer depends only on the conversation
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
export function nextStep(messages: readonly BaseMessage[]): { step: RunStep; index: number } | null {
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
  const index = messages.slice(at + 1).filter((m) => m.getType() === 'ai').length;
  const step = steps[index];
  return step ? { step, index } : null;
}

/** A turn of the script: the tool call for the next step, or the closing answer. */
function turn(messages: BaseMessage[], stopped: () => boolean): BaseMessage {
  const next = stopped() ? null : nextStep(messages);
  if (!next) return new AIMessage('done');
  const { step, index } = next;
  const id = `step-${index}`;
  if (step.type === 'subagent') {
    return new AIMessage({
      content: '',
      tool_calls: [
        { name: 'task', args: { description: scriptMessage(step.steps), subagent_type: SUBAGENT_NAME }, id },
      ],
    });
  }
  return new AIMessage({
    content: '',
    tool_calls: [{ name: STEP_TOOLS[step.type], args: { step: JSON.stringify(step) }, id }],
  });
}

/** `stopped`: a step failed — the model ends the agent instead of going on with the script. */
export function scriptModel(stopped: () => boolean) {
  const model = fakeModel();
  for (let i = 0; i < MAX_TURNS; i++) model.respond((messages) => turn(messages, stopped));
  return model;
}
