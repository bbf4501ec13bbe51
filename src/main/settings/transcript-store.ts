import type { AgentEvent } from '../../shared/agent-events';
import type { ApprovalDecision } from '../../shared/settings';
import { addNotice, answerApproval, applyAgentEvent, closeOpenAsks, limitEntries, type ChatEntry } from '../../shared/transcript';
import { defaultTimers, type Timers } from '../host-link/host-supervisor';

/** What the transcript needs from electron-store. */
export interface HistoryStore {
  get(key: 'entries'): ChatEntry[];
  set(key: 'entries', value: ChatEntry[]): void;
}

export interface TranscriptOptions {
  store: HistoryStore;
  /** The historyLimit setting, read on every change. */
  limit: () => number;
  now?: () => number;
  /** Chunks arrive every few ms while an answer streams; the file is written at most this often. */
  writeDelayMs?: number;
  timers?: Timers;
}

/**
 * Main's copy of the chat, folded from the host's events with the renderer's own reducer, so a
 * reloaded window or a restarted host loses nothing.
 */
export class Transcript {
  private readonly options: TranscriptOptions;
  private entries: ChatEntry[];
  private pendingWrite: unknown;

  constructor(options: TranscriptOptions) {
    this.options = options;
    // The process that saved this chat is gone: whatever was mid-ask then can never finish now.
    this.entries = limitEntries(closeOpenAsks(storedEntries(options.store)), options.limit());
  }

  list(): ChatEntry[] {
    return this.entries;
  }

  applyEvent(event: AgentEvent): void {
    this.change(applyAgentEvent(this.entries, event, this.now()));
  }

  addNotice(level: 'info' | 'error', text: string): void {
    this.change(addNotice(this.entries, level, text, this.now()));
  }

  /** The newest notice in the chat, to tell whether a new one would only repeat it. */
  lastNotice(): Extract<ChatEntry, { kind: 'notice' }> | undefined {
    return this.entries.findLast((entry) => entry.kind === 'notice');
  }

  /** The approval card `id`, while it waits for an answer. */
  openApproval(id: string): Extract<ChatEntry, { kind: 'approval' }> | undefined {
    return this.entries.find(
      (entry): entry is Extract<ChatEntry, { kind: 'approval' }> =>
        entry.kind === 'approval' && entry.id === id && entry.decision === undefined && entry.expired !== true,
    );
  }

  answerApproval(id: string, decision: ApprovalDecision): void {
    this.change(answerApproval(this.entries, id, decision));
  }

  clear(): void {
    this.change([]);
  }

  /** After the limit setting changed. */
  applyLimit(): void {
    this.change(this.entries);
  }

  /** Writes now (before quitting). */
  flush(): void {
    if (this.pendingWrite === undefined) return;
    this.timers().clearTimeout(this.pendingWrite);
    this.pendingWrite = undefined;
    this.options.store.set('entries', this.entries);
  }

  private change(entries: ChatEntry[]): void {
    this.entries = limitEntries(entries, this.options.limit());
    this.pendingWrite ??= this.timers().setTimeout(() => {
      this.pendingWrite = undefined;
      this.options.store.set('entries', this.entries);
    }, this.options.writeDelayMs ?? 1000);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private timers(): Timers {
    return this.options.timers ?? defaultTimers;
  }
}

/** history.json is a file users can edit and older versions wrote: anything but a list of entries starts an empty chat. */
function storedEntries(store: HistoryStore): ChatEntry[] {
  const entries: unknown = store.get('entries');
  if (!Array.isArray(entries)) return [];
  return entries.filter((entry): entry is ChatEntry => typeof entry === 'object' && entry !== null && typeof (entry as { kind?: unknown }).kind === 'string');
}
