/**
 * The automation host as a service, declared once: every request main may make of it, every
 * one-way notification, and every event it pushes, each with its schema. Main's HostClient and
 * the host's AutomationHost both read this object (through rpc/client.ts and rpc/server.ts),
 * so a new host request is one entry here and one handler in src/host/host.ts.
 *
 * Both sides validate what they receive: the host is our own code, but a crash mid-write or a
 * version mismatch must become a logged rejection. Plain JSON only, because the same messages
 * cross Electron's parentPort and Node's IPC channel.
 */
import { z } from 'zod';
import type { AgentEvent } from './agent-events';
import { HISTORY_MESSAGE_SCHEMA, HOST_SETTINGS_SCHEMA } from './host-protocol';
import { MAX_ASK_CHARS } from './ipc-schemas';
import type { DocsStatus, TargetApp } from './ipc';
import type { McpNotice } from './mcp-servers';
import { defineService, type MethodName, type ResultIn } from './rpc/service';
import { APPROVAL_DECISIONS } from './settings';
import { SUGGESTION_KINDS } from './suggestions';
import type { WorkflowDraft, WorkflowEvent, WorkflowListReply, WorkflowSummary } from './workflow-ipc';
import { WORKFLOW_REQUEST_SCHEMAS } from './workflow-ipc-schemas';

/**
 * A value whose envelope is checked and whose inner fields are the producer's own output (an
 * AgentEvent, a workflow report): main passes them on to reducers that tolerate what they do not know.
 */
function envelope<T>(schema: z.ZodType): z.ZodType<T, T> {
  return z.custom<T>((value) => schema.safeParse(value).success);
}

const none = z.strictObject({});
const pid = z.int().positive();

const TARGET_APP = z.strictObject({ pid, app: z.string().max(1000), title: z.string().max(2000) }) satisfies z.ZodType<TargetApp>;

const DOCS_STATUS = z.strictObject({
  files: z.number(),
  skipped: z.number(),
  sections: z.number(),
  sizeBytes: z.number(),
  updatedAt: z.number().nullable(),
  indexing: z.strictObject({ done: z.number(), total: z.number() }).nullable(),
  embedding: z.strictObject({ model: z.string(), embedded: z.number(), total: z.number() }).nullable(),
}) satisfies z.ZodType<DocsStatus>;

const AGENT_EVENT = envelope<AgentEvent>(
  z.looseObject({
    type: z.enum(['ask', 'ai_request', 'ai_chunk', 'ai_response', 'tool_call', 'approval_request', 'tool_log', 'tool_result', 'done', 'error']),
    askId: z.string(),
  }),
);

const WORKFLOW_EVENT = envelope<WorkflowEvent>(
  z.looseObject({ type: z.enum(['started', 'step', 'approval', 'finished', 'failed', 'stopped']), runId: z.string().max(200) }),
);

const MCP_NOTICE = z.union([
  z.strictObject({ kind: z.literal('started'), server: z.string().max(200), tools: z.int().nonnegative() }),
  z.strictObject({ kind: z.literal('stopped'), server: z.string().max(200) }),
  z.strictObject({ kind: z.literal('failed'), server: z.string().max(200), problem: z.string().max(2000) }),
  z.strictObject({ kind: z.literal('limited'), server: z.string().max(200), problem: z.string().max(2000) }),
]) satisfies z.ZodType<McpNotice>;

/** An app whose tree is a bare window because it was started without accessibility, and how it would be started with it. */
export const RELAUNCH_OFFER_SCHEMA = z.strictObject({ app: z.string().max(200), command: z.string().max(400) });
export type RelaunchOffer = z.infer<typeof RELAUNCH_OFFER_SCHEMA>;

export const HOST_SERVICE = defineService({
  methods: {
    /** Replied with `{ askId }` as soon as the ask is queued; its progress comes as `agent` events. */
    ask: { params: z.strictObject({ text: z.string().min(1).max(MAX_ASK_CHARS), pid }), result: z.strictObject({ askId: z.string().max(200) }) },
    /** The frontmost app as a TargetApp, or null. */
    frontmost: { params: none, result: TARGET_APP.nullable() },
    docsStatus: { params: none, result: DOCS_STATUS },
    /** What the empty chat may suggest asking about the app `pid`. */
    suggest: { params: z.strictObject({ pid }), result: z.array(z.enum(SUGGESTION_KINDS)).max(10) },
    workflowList: {
      params: none,
      result: envelope<WorkflowListReply>(
        z.looseObject({ workflows: z.array(z.looseObject({ name: z.string() })), folder: z.string(), skipped: z.array(z.unknown()) }),
      ),
    },
    /** Replied with `{ runId }` at once; the run reports through `workflow` events. */
    workflowRun: {
      params: z.strictObject({ ...WORKFLOW_REQUEST_SCHEMAS.run.shape, pid: pid.optional() }),
      result: z.strictObject({ runId: z.string().max(200) }),
    },
    workflowDraft: {
      params: WORKFLOW_REQUEST_SCHEMAS.draft,
      result: envelope<WorkflowDraft>(z.looseObject({ askId: z.string(), name: z.string(), steps: z.array(z.string()), parameters: z.array(z.unknown()) })),
    },
    workflowSave: {
      params: WORKFLOW_REQUEST_SCHEMAS.save,
      result: envelope<WorkflowSummary>(
        z.looseObject({ name: z.string(), title: z.string(), steps: z.number(), parameters: z.array(z.unknown()), risky: z.boolean() }),
      ),
    },
    /** Whether the app `pid` shows a bare window for want of accessibility, with the command that would fix it; null when not. */
    relaunchOffer: { params: z.strictObject({ pid }), result: RELAUNCH_OFFER_SCHEMA.nullable() },
    /** Quits that app gracefully and starts it again with accessibility; the user agreed in the window. Replied with the new pid. */
    relaunchApp: { params: z.strictObject({ pid }), result: z.strictObject({ pid }) },
  },
  notifications: {
    stop: none,
    approve: z.strictObject({ id: z.string().min(1).max(200), decision: z.enum(APPROVAL_DECISIONS) }),
    clear: none,
    /** The provider settings with the decrypted key: they only ever travel main → host. */
    settings: z.strictObject({ settings: HOST_SETTINGS_SCHEMA }),
    restore: z.strictObject({ messages: z.array(HISTORY_MESSAGE_SCHEMA).max(10_000) }),
    /** Deletes the documentation index; the host builds it again and reports progress. */
    docsRebuild: none,
    workflowStop: none,
  },
  events: {
    /** The host built its core and takes requests; main then sends settings and the history. */
    ready: z.strictObject({ pid }),
    agent: AGENT_EVENT,
    /** The conversation after an ask finished or was cleared (Agent.history()), for a restart. */
    history: z.strictObject({ messages: z.array(HISTORY_MESSAGE_SCHEMA) }),
    /** Never carries a secret: the host logs what it did, not the settings it got. */
    log: z.strictObject({ level: z.enum(['info', 'warn', 'error']), text: z.string().max(4000) }),
    /** The documentation index changed or is being built. */
    docs: DOCS_STATUS,
    /** One of the user's MCP servers started, stopped, was limited or failed: main tells the user in their language. */
    mcp: MCP_NOTICE,
    /** A workflow run's progress, approval or report. */
    workflow: WORKFLOW_EVENT,
  },
});

export type HostService = typeof HOST_SERVICE;

/** What the host answers to method `M`: the handler returns it, main receives it checked. */
export type HostReply<M extends MethodName<HostService>> = ResultIn<HostService, M>;
