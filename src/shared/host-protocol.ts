/**
 * The messages between main and the automation host (the utilityProcess that runs the core).
 * Both sides validate what they receive with these schemas: the host is our own code, but a
 * crash mid-write or a version mismatch must become a logged rejection, not undefined behaviour.
 * Plain JSON only, because the same messages cross Electron's parentPort and Node's IPC channel.
 */
import { z } from 'zod';
import { TOOL_ALLOWANCES_SCHEMA } from './tool-allowances';
import type { AgentEvent } from './agent-events';
import type { SerializedError } from './errors';
import type { DocsStatus, TargetApp } from './ipc';
import { ANSWER_LANGUAGE_CHOICES, LANGUAGES } from './i18n/i18n';
import { APPROVAL_DECISIONS, APPROVAL_POLICIES, MAX_DOCS_FOLDERS, MAX_PATH_CHARS, PRESET_NAMES, VISION_MODES } from './settings';
import { MAX_ASK_CHARS } from './ipc-schemas';
import { describeIssues } from './validation';
import type { McpNotice } from './mcp-servers';
import type { SuggestionKind } from './suggestions';
import type { WorkflowDraft, WorkflowEvent, WorkflowListReply, WorkflowRunReply, WorkflowSummary } from './workflow-ipc';
import { WORKFLOW_HOST_MESSAGE, WORKFLOW_HOST_REQUESTS } from './workflow-ipc-schemas';

/**
 * One provider message as the `openai` SDK shapes it. Main keeps them opaque: it only stores
 * the latest snapshot and hands it back to a restarted host, so only the role is checked.
 */
const historyMessage = z.looseObject({ role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']) });
export type HistoryMessage = z.infer<typeof historyMessage>;

/** The provider part of the settings, with the decrypted key: it only ever travels main → host. */
const hostSettings = z.strictObject({
  preset: z.enum(PRESET_NAMES),
  baseUrl: z.string().max(2000),
  model: z.string().max(200),
  headers: z.string().max(4000),
  apiKey: z.string().max(1000).optional(),
  approvalPolicy: z.enum(APPROVAL_POLICIES),
  embeddingModel: z.string().max(200),
  /** The UI's language, resolved: the answers' fallback when a question's own language is unclear. */
  language: z.enum(LANGUAGES),
  answerLanguage: z.enum(ANSWER_LANGUAGE_CHOICES),
  /** The user's MCP servers, secrets included (main → host only); the host parses them again. */
  mcpServers: z.record(z.string(), z.unknown()),
  /** The MCP tools and servers the user allowed to run without asking. */
  toolAllowances: TOOL_ALLOWANCES_SCHEMA,
  /** Whether images from tools go to the model (the setting, or DESKPILOT_VISION). */
  vision: z.enum(VISION_MODES),
  /** "Never take my pointer or keyboard": synthetic input steps are asked about first (see ActionEngine's askBeforeInput, keep-devices.ts). */
  keepDevices: z.boolean().optional(),
  docs: z.strictObject({
    folders: z.array(z.string().max(MAX_PATH_CHARS)).max(MAX_DOCS_FOLDERS),
    appHelp: z.boolean(),
    manPages: z.boolean(),
    userFolders: z.boolean(),
  }),
});
export type HostSettings = z.infer<typeof hostSettings>;

const requestId = z.int().nonnegative();

export const HOST_REQUEST_SCHEMA = z.discriminatedUnion('type', [
  /** Replied with `{ askId }` as soon as the ask is queued; its progress comes as agent events. */
  z.strictObject({ type: z.literal('ask'), requestId, text: z.string().min(1).max(MAX_ASK_CHARS), pid: z.int().positive() }),
  z.strictObject({ type: z.literal('stop') }),
  z.strictObject({ type: z.literal('approve'), id: z.string().min(1).max(200), decision: z.enum(APPROVAL_DECISIONS) }),
  z.strictObject({ type: z.literal('clear') }),
  /** Replied with the frontmost app as a TargetApp, or null. */
  z.strictObject({ type: z.literal('frontmost'), requestId }),
  z.strictObject({ type: z.literal('settings'), settings: hostSettings }),
  z.strictObject({ type: z.literal('restore'), messages: z.array(historyMessage).max(10_000) }),
  /** Replied with the index's DocsStatus. */
  z.strictObject({ type: z.literal('docsStatus'), requestId }),
  /** Replied with what the empty chat may suggest asking about the app `pid` (SuggestionKind[]). */
  z.strictObject({ type: z.literal('suggest'), requestId, pid: z.int().positive() }),
  /** Deletes the documentation index; the host builds it again and reports progress. */
  z.strictObject({ type: z.literal('docsRebuild') }),
  ...WORKFLOW_HOST_REQUESTS,
]);
export type HostRequest = z.infer<typeof HOST_REQUEST_SCHEMA>;

/** The reply value for each request type that has one. */
export interface HostReplies {
  ask: { askId: string };
  frontmost: TargetApp | null;
  docsStatus: DocsStatus;
  suggest: SuggestionKind[];
  workflowList: WorkflowListReply;
  workflowRun: WorkflowRunReply;
  workflowDraft: WorkflowDraft;
  workflowSave: WorkflowSummary;
}

const serializedError = z.strictObject({
  code: z.string(),
  message: z.string(),
  isRetryable: z.boolean(),
  data: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Agent events are checked for their tag and ask id only: main folds them with the same
 * reducer the renderer uses, which tolerates the fields it does not know.
 */
const agentEvent = z.looseObject({
  type: z.enum(['ask', 'ai_request', 'ai_chunk', 'ai_response', 'tool_call', 'approval_request', 'tool_log', 'tool_result', 'done', 'error']),
  askId: z.string(),
});

// A plain union: the two reply shapes share their tag.
export const HOST_MESSAGE_SCHEMA = z.union([
  /** The host built its core and takes requests; main then sends settings and the history. */
  z.strictObject({ type: z.literal('ready'), pid: z.int().positive() }),
  z.strictObject({ type: z.literal('agent'), event: agentEvent }),
  /** The conversation after an ask finished or was cleared (Agent.history()), for a restart. */
  z.strictObject({ type: z.literal('history'), messages: z.array(historyMessage) }),
  z.strictObject({ type: z.literal('reply'), requestId, ok: z.literal(true), value: z.unknown() }),
  z.strictObject({ type: z.literal('reply'), requestId, ok: z.literal(false), error: serializedError }),
  /** Never carries a secret: the host logs what it did, not the settings it got. */
  z.strictObject({ type: z.literal('log'), level: z.enum(['info', 'warn', 'error']), text: z.string().max(4000) }),
  /** The documentation index changed or is being built (a DocsStatus; main passes it on as is). */
  z.strictObject({ type: z.literal('docs'), status: z.looseObject({ files: z.number(), indexing: z.unknown() }) }),
  /** One of the user's MCP servers started, stopped or failed: main tells the user in their language. */
  z.strictObject({
    type: z.literal('mcp'),
    notice: z.union([
      z.strictObject({ kind: z.literal('started'), server: z.string().max(200), tools: z.int().nonnegative() }),
      z.strictObject({ kind: z.literal('stopped'), server: z.string().max(200) }),
      z.strictObject({ kind: z.literal('failed'), server: z.string().max(200), problem: z.string().max(2000) }),
    ]),
  }),
  WORKFLOW_HOST_MESSAGE,
]);

/** What the host sends. `agent.event` is the full AgentEvent; the schema checks its envelope. */
export type HostMessage =
  | { type: 'ready'; pid: number }
  | { type: 'agent'; event: AgentEvent }
  | { type: 'history'; messages: HistoryMessage[] }
  | { type: 'reply'; requestId: number; ok: true; value: unknown }
  | { type: 'reply'; requestId: number; ok: false; error: SerializedError }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; text: string }
  | { type: 'docs'; status: DocsStatus }
  | { type: 'mcp'; notice: McpNotice }
  | { type: 'workflow'; event: WorkflowEvent };

/** A parse result that names what was wrong without echoing the message (it may hold a key). */
export function parseHostRequest(raw: unknown): { ok: true; request: HostRequest } | { ok: false; problem: string } {
  const parsed = HOST_REQUEST_SCHEMA.safeParse(raw);
  return parsed.success ? { ok: true, request: parsed.data } : { ok: false, problem: describeIssues(parsed.error.issues, { max: 3 }) };
}

export function parseHostMessage(raw: unknown): { ok: true; message: HostMessage } | { ok: false; problem: string } {
  const parsed = HOST_MESSAGE_SCHEMA.safeParse(raw);
  // The schema checked the envelope; the event's inner fields are the Agent's own output.
  return parsed.success ? { ok: true, message: parsed.data as HostMessage } : { ok: false, problem: describeIssues(parsed.error.issues, { max: 3 }) };
}
