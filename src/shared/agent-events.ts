/**
 * What the Agent reports while it works, as one tagged union. Every event is plain JSON
 * (errors travel as SerializedError), because the renderer gets them over IPC and the CLI
 * prints them; a class instance would lose its shape on the way.
 */
import type { SerializedError } from './errors';
import type { ActionPlan, RiskReason } from './risk';
import type { ToolGist } from './tool-gist';

/** One tool call the model asked for; `arguments` is the raw JSON string it sent. */
export interface AgentToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface AgentUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** Why an ask ended without an error. */
export type DoneReason = 'answered' | 'stopped' | 'iteration_limit';

/**
 * After an ask that acted, the Agent re-observes the app before it reports done. `confirmed`
 * is false when the end state could not be seen to match what the actions reported; `notes`
 * say what was checked or what did not match, in words the user can read.
 */
export interface EndStateCheck {
  confirmed: boolean;
  notes: string[];
}

export type AgentEvent =
  /** An ask joined the queue; it runs once the ones before it finish. */
  | { type: 'ask'; askId: string; text: string; pid: number }
  /** A request is going to the model; `iteration` counts from 1 within the ask. */
  | { type: 'ai_request'; askId: string; iteration: number; messageCount: number }
  | { type: 'ai_chunk'; askId: string; delta: string }
  /** The model's whole turn: its text and the tool calls it wants run. */
  | { type: 'ai_response'; askId: string; text: string; toolCalls: AgentToolCall[]; finishReason: string; usage?: AgentUsage }
  /** `gist`: the call in people's words, as its tool describes itself (absent from events saved before it existed). */
  | { type: 'tool_call'; askId: string; callId: string; name: string; arguments: string; gist?: ToolGist }
  /**
   * An acting tool call waits for the user: the UI or CLI answers through the Agent's `decide`
   * option with allow once, allow for this app, or deny. `summary` is the arguments, shortened.
   */
  | {
      type: 'approval_request';
      id: string;
      askId: string;
      callId: string;
      tool: string;
      summary: string;
      reason: string;
      why?: RiskReason;
      plan?: ActionPlan;
      pid?: number;
      app?: string;
      /** A tool of one of the user's MCP servers: the server, and the tool's own name there. */
      external?: { server: string; tool: string };
    }
  | { type: 'tool_log'; askId: string; callId: string; text: string }
  /** `error` is set on every failed result: the typed error, whatever the tool put in `data`. */
  | { type: 'tool_result'; askId: string; callId: string; name: string; success: boolean; message: string; data?: unknown; error?: SerializedError }
  /** The ask is over (`cached` when the answer was replayed from the response cache). A stop is a `done` with `stopped: true`, never an `error`: cancelling is not a failure. */
  | { type: 'done'; askId: string; answer: string; stopped: boolean; reason: DoneReason; cached?: boolean; check?: EndStateCheck }
  /** The ask failed (a provider error, usually). The conversation is kept and the next ask still works. */
  | { type: 'error'; askId: string; error: SerializedError };

export type AgentEventType = AgentEvent['type'];
