import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { DeskpilotError } from '../../../shared/errors';
import type { StreamPart } from './types';

type ToolCallDelta = NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number];
type ToolCallPart = Extract<StreamPart, { type: 'tool_call' }>;

interface Pending {
  id: string | undefined;
  name: string;
  arguments: string;
}

/**
 * Stream deltas carry tool calls keyed by `index`: the id and name come once, the
 * arguments in fragments, and parallel calls interleave. Nothing is emitted until the
 * choice finishes, because only then is a call's argument string known to be whole.
 */
export class ToolCallAssembler {
  private readonly pending = new Map<number, Pending>();

  add(delta: ToolCallDelta): void {
    const entry = this.pending.get(delta.index) ?? { id: undefined, name: '', arguments: '' };
    if (delta.id) entry.id = delta.id;
    // Some servers resend the whole name in each chunk, others split it; only append new text.
    const name = delta.function?.name;
    if (name) entry.name = entry.name === '' || name.startsWith(entry.name) ? name : entry.name + name;
    entry.arguments += delta.function?.arguments ?? '';
    this.pending.set(delta.index, entry);
  }

  get size(): number {
    return this.pending.size;
  }

  /** The completed calls in index order; a call without a name cannot be dispatched. */
  finish(): ToolCallPart[] {
    const calls = [...this.pending.entries()].sort(([a], [b]) => a - b);
    this.pending.clear();
    return calls.map(([index, call]) => {
      if (call.name === '') {
        throw new DeskpilotError('PROVIDER_STREAM', `The model sent tool call #${index} without a function name.`, {
          data: { index },
        });
      }
      // Some compatible servers omit ids; the agent needs one to pair the tool result with its call.
      return { type: 'tool_call', id: call.id ?? `call_${index}`, name: call.name, arguments: call.arguments };
    });
  }
}
