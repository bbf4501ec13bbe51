/**
 * The chat as the user sees it, folded from AgentEvents. Main keeps and persists one copy
 * (so a reloaded window or a restarted host loses nothing), the renderer folds the same events
 * live; both use the same pure reducer, so the two can never disagree.
 *
 * Every function here is pure and immutable: it returns a new array (entries it did not touch
 * are the same objects, so React can skip them) and depends only on its arguments.
 */
import type { AgentEvent, EndStateCheck } from './agent-events';
import type { SerializedError } from './errors';
import type { ActionPlan, RiskReason } from './risk';
import type { ApprovalDecision } from './settings';
import type { ToolGist } from './tool-gist';

export type ChatEntry =
  | { kind: 'user'; id: string; askId: string; text: string; at: number }
  | {
      kind: 'assistant';
      id: string;
      askId: string;
      text: string;
      /** Still receiving chunks. */
      streaming: boolean;
      /** The stream was cut or the user stopped it; `text` is what arrived. */
      interrupted?: boolean;
      cached?: boolean;
      check?: EndStateCheck;
    }
  | {
      kind: 'tool';
      /** The tool call id (with `#n` added when a model reuses one, so ids stay unique). */
      id: string;
      askId: string;
      name: string;
      /** The raw JSON arguments the model sent. */
      arguments: string;
      /** The call in people's words, as its tool describes itself; absent in entries saved before it existed. */
      gist?: ToolGist;
      status: 'running' | 'ok' | 'failed';
      message?: string;
      /** From a ui_action result: which path ran and whether the UI changed. */
      method?: string;
      changed?: boolean;
      /** From a ui_action result: the node acted on, as `name role` ("Save button"). */
      target?: string;
      logs: string[];
      /**
       * Not filled by applyAgentEvent: a tool's data can be a whole tree, and the transcript is
       * persisted. What the UI needs from it (method, changed, target) is copied out instead.
       */
      data?: unknown;
    }
  | {
      kind: 'approval';
      /** The approval_request id, which approve() answers. */
      id: string;
      askId: string;
      tool: string;
      summary: string;
      reason: string;
      /** The reason as a code, said in the window's language; absent in entries saved before it existed. */
      why?: RiskReason;
      plan?: ActionPlan;
      app?: string;
      /** A tool of one of the user's MCP servers, which may be allowed for good (tool-allowances.ts). */
      external?: { server: string; tool: string };
      decision?: ApprovalDecision;
      /** The ask ended (stop, error) before anyone answered; it can no longer be answered. */
      expired?: boolean;
    }
  /** `retryText` is the question to send again ('' when the question is no longer known). */
  | { kind: 'error'; id: string; askId: string; error: SerializedError; retryText: string }
  /** `detail`: the technical words (an error's code and message), shown folded for bug reports. */
  | { kind: 'notice'; id: string; level: 'info' | 'error'; text: string; detail?: string; at: number };

export type ChatEntryKind = ChatEntry['kind'];

type Entry<K extends ChatEntryKind> = Extract<ChatEntry, { kind: K }>;
type AskEntry = Exclude<ChatEntry, { kind: 'notice' }>;

function hasAsk(entry: ChatEntry): entry is AskEntry {
  return entry.kind !== 'notice';
}

/**
 * Where the entries of one ask live. Ask ids restart with every Agent (a restarted host, a new
 * session over a loaded history), so an ask is its LAST user entry with that id and what follows it.
 */
function askRange(entries: readonly ChatEntry[], askId: string): { start: number; end: number } | undefined {
  let start = -1;
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index];
    if (entry?.kind === 'user' && entry.askId === askId) {
      start = index;
      break;
    }
  }
  if (start < 0) {
    // Events of an ask whose question was cut off by limitEntries: it starts at its first entry.
    start = entries.findIndex((entry) => hasAsk(entry) && entry.askId === askId);
    if (start < 0) return undefined;
  }
  let end = start;
  for (let index = start + 1; index < entries.length; index += 1) {
    const entry = entries[index];
    if (entry !== undefined && hasAsk(entry) && entry.askId === askId) end = index;
  }
  return { start, end };
}

/** Index of the last entry of `askId` matching `test`, within the ask's current range. */
function findInAsk(entries: readonly ChatEntry[], askId: string, test: (entry: AskEntry) => boolean): number {
  const range = askRange(entries, askId);
  if (range === undefined) return -1;
  for (let index = range.end; index >= range.start; index -= 1) {
    const entry = entries[index];
    if (entry !== undefined && hasAsk(entry) && entry.askId === askId && test(entry)) return index;
  }
  return -1;
}

/** An id no entry of the same kind has yet: `base`, else `base#2`, `base#3`… */
function uniqueId(entries: readonly ChatEntry[], kind: ChatEntryKind, base: string): string {
  const taken = new Set(entries.filter((entry) => entry.kind === kind).map((entry) => entry.id));
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix += 1) {
    const id = `${base}#${suffix}`;
    if (!taken.has(id)) return id;
  }
}

/** Queued asks already have their user entry further down, so an ask's new entry goes right after its own last one. */
function insertForAsk(entries: readonly ChatEntry[], entry: AskEntry): ChatEntry[] {
  const range = askRange(entries, entry.askId);
  const at = range === undefined ? entries.length : range.end + 1;
  return [...entries.slice(0, at), entry, ...entries.slice(at)];
}

function replaceAt(entries: readonly ChatEntry[], index: number, entry: ChatEntry): ChatEntry[] {
  const next = entries.slice();
  next[index] = entry;
  return next;
}

/** The entry that text of this ask goes into: its last entry, if that is an assistant entry. */
function openAssistant(entries: readonly ChatEntry[], askId: string): number {
  const range = askRange(entries, askId);
  if (range === undefined) return -1;
  return entries[range.end]?.kind === 'assistant' ? range.end : -1;
}

function newAssistant(entries: readonly ChatEntry[], askId: string, text: string, streaming: boolean): Entry<'assistant'> {
  return { kind: 'assistant', id: uniqueId(entries, 'assistant', `${askId}:answer`), askId, text, streaming };
}

function question(entries: readonly ChatEntry[], askId: string): string {
  const index = findInAsk(entries, askId, (entry) => entry.kind === 'user');
  const entry = entries[index];
  return entry?.kind === 'user' ? entry.text : '';
}

/** What the UI shows of a ui_action result; anything else a tool returns is left alone. */
function actionFacts(data: unknown): Pick<Entry<'tool'>, 'method' | 'changed' | 'target'> {
  if (typeof data !== 'object' || data === null) return {};
  const result = data as { method?: unknown; changed?: unknown; nodeBefore?: unknown };
  if (typeof result.method !== 'string' || typeof result.changed !== 'boolean') return {};
  const facts: Pick<Entry<'tool'>, 'method' | 'changed' | 'target'> = { method: result.method, changed: result.changed };
  const node = result.nodeBefore as { name?: unknown; role?: unknown } | null | undefined;
  if (typeof node === 'object' && node !== null) {
    const target = [node.name, node.role].filter((part) => typeof part === 'string' && part !== '').join(' ');
    if (target !== '') facts.target = target;
  }
  return facts;
}

/**
 * An ask ended (done or error): nothing of it streams or runs any more. Tools that never got a
 * result failed, approvals nobody answered expired, and a streaming answer keeps what arrived.
 */
function closeAsk(entries: readonly ChatEntry[], askId: string, toolMessage: string): ChatEntry[] {
  const range = askRange(entries, askId);
  if (range === undefined) return entries.slice();
  return entries.map((entry, index) => {
    if (index < range.start || index > range.end || !hasAsk(entry) || entry.askId !== askId) return entry;
    return closeEntry(entry, toolMessage);
  });
}

/** One entry of an ended ask, as closeAsk leaves it. */
function closeEntry(entry: AskEntry, toolMessage: string): AskEntry {
  if (entry.kind === 'assistant' && entry.streaming) return { ...entry, streaming: false, interrupted: true };
  if (entry.kind === 'tool' && entry.status === 'running') return { ...entry, status: 'failed', message: toolMessage };
  if (entry.kind === 'approval' && entry.decision === undefined && entry.expired !== true) return { ...entry, expired: true };
  return entry;
}

/**
 * Ends every ask that is still open in `entries`: a chat loaded from disk was saved by a process
 * that is gone, so no answer streams, no tool runs and no approval can be answered any more.
 * Without this a chat saved mid-ask would show Stop and live approval buttons forever.
 */
export function closeOpenAsks(entries: readonly ChatEntry[], toolMessage = 'Deskpilot closed before it finished'): ChatEntry[] {
  return entries.map((entry) => (hasAsk(entry) ? closeEntry(entry, toolMessage) : entry));
}

function applyDone(entries: readonly ChatEntry[], event: Extract<AgentEvent, { type: 'done' }>): ChatEntry[] {
  const index = openAssistant(entries, event.askId);
  const extra = { ...(event.cached === true ? { cached: true } : {}), ...(event.check === undefined ? {} : { check: event.check }) };
  if (event.stopped) {
    // A stop says so on the answer, so the user sees where it was cut (or that nothing came).
    const stopped = index < 0 ? insertForAsk(entries, newAssistant(entries, event.askId, '', false)) : entries;
    const at = index < 0 ? openAssistant(stopped, event.askId) : index;
    const entry = stopped[at] as Entry<'assistant'>;
    return closeAsk(replaceAt(stopped, at, { ...entry, streaming: false, interrupted: true, ...extra }), event.askId, 'stopped before it finished');
  }
  let next: ChatEntry[];
  if (index >= 0) {
    const entry = entries[index] as Entry<'assistant'>;
    next = replaceAt(entries, index, { ...entry, text: event.answer === '' ? entry.text : event.answer, streaming: false, ...extra });
  } else if (event.answer !== '' || event.check !== undefined) {
    // The iteration-limit answer arrives only here, without chunks.
    next = insertForAsk(entries, { ...newAssistant(entries, event.askId, event.answer, false), ...extra });
  } else {
    next = entries.slice();
  }
  return closeAsk(next, event.askId, 'ended without a result');
}

/** Folds one AgentEvent into the chat. `now` stamps new user entries. */
export function applyAgentEvent(entries: readonly ChatEntry[], event: AgentEvent, now: number): ChatEntry[] {
  // An ask that is not in the chat was cleared away while it ran: what it still sends (its
  // chunks, a stop's done) must not bring back a stray bubble.
  if (event.type !== 'ask' && askRange(entries, event.askId) === undefined) return entries.slice();
  switch (event.type) {
    case 'ask':
      return [...entries, { kind: 'user', id: uniqueId(entries, 'user', event.askId), askId: event.askId, text: event.text, at: now }];
    case 'ai_request':
      return entries.slice();
    case 'ai_chunk': {
      if (event.delta === '') return entries.slice();
      const index = openAssistant(entries, event.askId);
      const entry = entries[index];
      if (entry?.kind !== 'assistant') return insertForAsk(entries, newAssistant(entries, event.askId, event.delta, true));
      // A chunk after the turn's response (the end-state note) reopens the same answer.
      return replaceAt(entries, index, { ...entry, text: entry.text + event.delta, streaming: true });
    }
    case 'ai_response': {
      const index = openAssistant(entries, event.askId);
      const entry = entries[index];
      if (entry?.kind === 'assistant' && entry.streaming) {
        return replaceAt(entries, index, { ...entry, text: event.text === '' ? entry.text : event.text, streaming: false });
      }
      // A provider that did not stream: the whole text comes here.
      if (event.text === '') return entries.slice();
      return insertForAsk(entries, newAssistant(entries, event.askId, event.text, false));
    }
    case 'tool_call':
      return insertForAsk(entries, {
        kind: 'tool',
        id: uniqueId(entries, 'tool', event.callId),
        askId: event.askId,
        name: event.name,
        arguments: event.arguments,
        ...(event.gist === undefined ? {} : { gist: event.gist }),
        status: 'running',
        logs: [],
      });
    case 'tool_log':
    case 'tool_result': {
      const index = findInAsk(entries, event.askId, (entry) => entry.kind === 'tool' && (entry.id === event.callId || entry.id.startsWith(`${event.callId}#`)));
      const entry = entries[index];
      if (entry?.kind !== 'tool') return entries.slice();
      if (event.type === 'tool_log') return replaceAt(entries, index, { ...entry, logs: [...entry.logs, event.text] });
      return replaceAt(entries, index, { ...entry, status: event.success ? 'ok' : 'failed', message: event.message, ...actionFacts(event.data) });
    }
    case 'approval_request':
      return insertForAsk(entries, {
        kind: 'approval',
        id: event.id,
        askId: event.askId,
        tool: event.tool,
        summary: event.summary,
        reason: event.reason,
        ...(event.why === undefined ? {} : { why: event.why }),
        ...(event.plan === undefined ? {} : { plan: event.plan }),
        ...(event.app === undefined ? {} : { app: event.app }),
        ...(event.external === undefined ? {} : { external: event.external }),
      });
    case 'done':
      return applyDone(entries, event);
    case 'error': {
      const closed = closeAsk(entries, event.askId, 'interrupted by an error');
      const entry: Entry<'error'> = {
        kind: 'error',
        id: uniqueId(closed, 'error', `${event.askId}:error`),
        askId: event.askId,
        error: event.error,
        retryText: question(closed, event.askId),
      };
      return insertForAsk(closed, entry);
    }
  }
}

/** Folds a whole event sequence, as main does when it replays or tests do. */
export function foldAgentEvents(events: readonly AgentEvent[], now: number, entries: readonly ChatEntry[] = []): ChatEntry[] {
  return events.reduce<ChatEntry[]>((folded, event) => applyAgentEvent(folded, event, now), entries.slice());
}

/** Something the user should know that is not part of an ask (the host restarted). */
export function addNotice(entries: readonly ChatEntry[], level: 'info' | 'error', text: string, now: number, detail?: string): ChatEntry[] {
  const id = uniqueId(entries, 'notice', `notice-${now}`);
  return [...entries, { kind: 'notice', id, level, text, ...(detail === undefined ? {} : { detail }), at: now }];
}

/** Records the user's answer on its approval card; unknown, already answered or expired ids change nothing. */
export function answerApproval(entries: readonly ChatEntry[], id: string, decision: ApprovalDecision): ChatEntry[] {
  return entries.map((entry) =>
    entry.kind === 'approval' && entry.id === id && entry.decision === undefined && entry.expired !== true ? { ...entry, decision } : entry,
  );
}

/**
 * Keeps the newest `limit` entries. When the cut falls inside an ask, its question takes the
 * place of the oldest kept entry of that ask, so no answer or tool card is left without it.
 */
export function limitEntries(entries: readonly ChatEntry[], limit: number): ChatEntry[] {
  const count = Math.max(0, Math.floor(limit));
  if (entries.length <= count) return entries.slice();
  if (count === 0) return [];
  const start = entries.length - count;
  const kept = entries.slice(start);
  const first = kept[0];
  if (count < 2 || first === undefined || !hasAsk(first) || first.kind === 'user') return kept;
  const range = askRange(entries.slice(0, start + 1), first.askId);
  const user = range === undefined ? undefined : entries[range.start];
  if (user?.kind !== 'user') return kept;
  return [user, ...kept.slice(1)];
}
