import type { ErrorCode } from '../../shared/errors';
import type { EndStateCheck } from '../../shared/agent-events';
import type { UiActionResult } from '../../shared/ui-action';
import type { Role, UiNode } from '../../shared/ui-node';
import type { ActionEngine } from '../actions/engine';
import type { Platform } from '../platform/types';
import { indexTree, type IndexedNode } from '../ui/tree-index';
import type { FieldResult } from '../tools/fill-form';
import { isReadOnly, type Tool, type ToolResult } from '../tools/types';
import { argumentObject } from './tool-registry/registry';
import type { Language } from '../../shared/i18n/i18n';
import { agentText, type AgentText } from './text/agent-text';

export interface EndStateFindings {
  check: EndStateCheck;
  /** The notes that make `confirmed` false, for the sentence added to the answer. */
  problems: string[];
}

/** What one acting call left behind on one node: the state it reported, and whether it landed. */
interface NodeRecord {
  pid: number;
  id: string;
  /** `slider "Volume"`, for notes the user reads. */
  label: string;
  action: string;
  ok: boolean;
  changed: boolean;
  error?: string;
  /** The value set_value (or a fill of a text field or slider) asked for; the app may clamp or reformat it. */
  asked?: string | number;
  /** The node as the action last reported it; undefined when nothing was reported. */
  after: UiNode | undefined;
  /** The action ended the app (a Quit button): still gone is the confirmed state. */
  exited: boolean;
  /** The node went away as a result (a dialog's OK): nothing to compare. */
  gone: boolean;
  order: number;
  /** Which tool call made it: the fields of one ui_fill_form are one action, not later ones. */
  call: number;
}

interface WindowRecord {
  pid: number;
  ok: boolean;
  windowsAfter: number;
}

/** Errors that mean nothing ran, so there is nothing to confirm (the model usually retries). */
const NOTHING_RAN = new Set<string>(['NODE_NOT_FOUND', 'DRAG_TARGET_NOT_FOUND', 'VALIDATION', 'DENIED', 'SECRET_FIELD'] satisfies ErrorCode[]);

/** Roles where choosing one sibling unchooses another, so a later choice explains an earlier change. */
const CHOICE_ROLES = new Set<Role>(['radio', 'tab', 'listitem', 'treeitem', 'menuitem', 'row', 'cell']);

/** Tools whose effect this check can re-observe; other acting tools are noted as not checked. */
/** Notes quote app text (names, values, engine errors naming nodes); a long one would drown the answer. */
const NAME_CHARS = 40;
const VALUE_CHARS = 60;
const ERROR_CHARS = 120;

function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

/** JSON-quoted, so a name with a quote or a newline stays one visible string. */
function label(node: { role: string; name: string }): string {
  return node.name === '' ? node.role : `${node.role} ${JSON.stringify(cut(node.name, NAME_CHARS))}`;
}

function show(value: unknown, t: AgentText): string {
  if (value === undefined) return t('endState.nothing');
  return typeof value === 'string' ? JSON.stringify(cut(value, VALUE_CHARS)) : cut(JSON.stringify(value), VALUE_CHARS);
}

/** Roles whose fill sets the value given, so the value can be held to what was asked. */
const VALUE_ROLES = new Set<Role>(['textfield', 'textarea', 'slider', 'spinbutton']);

function askedValue(value: unknown): string | number | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

/** Numbers numerically (a slider may report "70" or 70.0), strings exactly. */
function sameValue(asked: string | number, value: string | number | undefined): boolean {
  if (value === undefined) return false;
  if (typeof asked === 'number') return Number(value) === asked;
  return typeof value === 'number' ? asked.trim() !== '' && Number(asked) === value : value === asked;
}

/** The parts of a node an action sets and a user would notice undone. Focus and bounds move legitimately. */
function differences(expected: UiNode, now: UiNode, t: AgentText): string[] {
  const found: string[] = [];
  if (expected.name !== now.name) found.push(t('endState.nameChanged', { now: show(now.name, t), before: show(expected.name, t) }));
  if (!now.states.secret && expected.value !== now.value) found.push(t('endState.valueChanged', { now: show(now.value, t), before: show(expected.value, t) }));
  for (const state of ['checked', 'selected', 'expanded'] as const) {
    const before = expected.states[state];
    const after = now.states[state];
    const named = t(`endState.state.${state}`);
    if (before !== undefined && before !== after)
      found.push(after === true ? t('endState.stateCame', { state: named }) : t('endState.stateGone', { state: named }));
  }
  return found;
}

/**
 * Everything the acting tools of one ask did, so the Agent can look at the app again before
 * it says "done". The last attempt on a node is the one that counts: a failure followed by a
 * success on the same node is a success.
 */
export class ActionLedger {
  private readonly nodes = new Map<string, NodeRecord>();
  private readonly windows = new Map<number, WindowRecord>();
  private readonly focusedApps = new Map<number, boolean>();
  private readonly unchecked = new Set<string>();
  private order = 0;
  private calls = 0;
  /** The ask's answer language: what the checks find is said in it. */
  private readonly t: AgentText;

  constructor(language: Language = 'en') {
    this.t = agentText(language);
  }

  /** True once an acting tool ran (successfully or not); read-only asks get no check. */
  get acted(): boolean {
    return this.nodes.size > 0 || this.windows.size > 0 || this.focusedApps.size > 0 || this.unchecked.size > 0;
  }

  /** `definition` undefined: a name no tool has, which ran nothing. */
  record(tool: string, definition: Pick<Tool, 'effects' | 'reports'> | undefined, rawArguments: string, pid: number | undefined, result: ToolResult): void {
    if (definition === undefined || isReadOnly(definition)) return;
    this.calls += 1;
    // A refusal, a denial or a thrown validation error: the tool stopped before acting.
    const data = result.data as { code?: unknown; error?: { code?: unknown } } | undefined;
    const code = data?.code ?? data?.error?.code;
    if (typeof code === 'string' && NOTHING_RAN.has(code)) return;
    if (definition.reports === undefined) {
      if (result.success) this.unchecked.add(tool);
      return;
    }
    if (pid === undefined) return;
    if (definition.reports === 'node') this.recordAction(pid, argumentObject(rawArguments), result);
    else if (definition.reports === 'fields') this.recordForm(pid, argumentObject(rawArguments), result);
    else if (definition.reports === 'windows') this.recordClose(pid, result);
    else this.focusedApps.set((result.data as { pid?: number } | undefined)?.pid ?? pid, result.success);
  }

  private put(key: string, record: Omit<NodeRecord, 'order' | 'call'>, replaces?: string): void {
    if (replaces !== undefined) this.nodes.delete(`${record.pid}:${replaces}`);
    this.nodes.delete(key);
    this.nodes.set(key, { ...record, order: (this.order += 1), call: this.calls });
  }

  private recordAction(pid: number, args: Record<string, unknown>, result: ToolResult): void {
    const action = typeof args['action'] === 'string' ? args['action'] : 'act';
    const outcome = result.data as UiActionResult | undefined;
    if (outcome === undefined || typeof outcome !== 'object' || !('success' in outcome)) {
      // The tool threw before the engine ran (the app had exited): an attempt that failed.
      if (!result.success)
        this.put(`${pid}:`, {
          pid,
          id: '',
          label: this.t('endState.theAction', { action }),
          action,
          ok: false,
          changed: false,
          error: cut(result.message, ERROR_CHARS),
          after: undefined,
          exited: false,
          gone: false,
        });
      return;
    }
    if (!outcome.success && NOTHING_RAN.has(outcome.error?.code ?? '')) return;
    const before = outcome.nodeBefore;
    const after = outcome.nodeAfter ?? undefined;
    // A node renamed by its own action (a counter) gets a new id; the record follows it.
    const subject = after ?? before;
    const id = subject?.id ?? (typeof args['id'] === 'string' ? args['id'] : '');
    const exited = outcome.changes.includes('the process exited');
    this.put(
      `${pid}:${id}`,
      {
        pid,
        id,
        label: subject === null || subject === undefined ? (id === '' ? this.t('endState.theAction', { action }) : `[${id}]`) : label(subject),
        action,
        ok: outcome.success,
        changed: outcome.changed,
        ...(outcome.error === undefined ? {} : { error: cut(outcome.error.message, ERROR_CHARS) }),
        ...(action === 'set_value' && askedValue(args['value']) !== undefined ? { asked: askedValue(args['value']) as string | number } : {}),
        after,
        exited,
        gone: outcome.success && !exited && after === undefined && before !== null,
      },
      before?.id,
    );
  }

  private recordForm(pid: number, args: Record<string, unknown>, result: ToolResult): void {
    const fields = (result.data as { fields?: FieldResult[] } | undefined)?.fields ?? [];
    // Results come back one per field asked for, in the same order.
    const wanted = Array.isArray(args['fields']) ? (args['fields'] as unknown[]) : [];
    for (const [position, field] of fields.entries()) {
      if (field.id === undefined) continue; // no such field: nothing was done to it
      const given = wanted[position];
      const asked =
        field.role !== undefined && VALUE_ROLES.has(field.role) && typeof given === 'object' && given !== null
          ? askedValue((given as { value?: unknown }).value)
          : undefined;
      const after = field.nodeAfter ?? undefined;
      this.put(
        `${pid}:${after?.id ?? field.id}`,
        {
          pid,
          id: after?.id ?? field.id,
          label: label({ role: field.role ?? 'field', name: field.label }),
          action: 'fill',
          ok: field.success,
          changed: true,
          ...(field.success ? {} : { error: cut(field.message, ERROR_CHARS) }),
          ...(asked === undefined ? {} : { asked }),
          after,
          exited: false,
          gone: false,
        },
        field.id,
      );
    }
  }

  private recordClose(pid: number, result: ToolResult): void {
    const after = (result.data as { after?: unknown } | undefined)?.after;
    this.windows.set(pid, { pid, ok: result.success, windowsAfter: typeof after === 'number' ? after : Number.POSITIVE_INFINITY });
  }

  /**
   * Looks at every app the ask acted on, fresh, and compares it with what the actions
   * reported. Never throws: a read that fails is itself a reason the result is not confirmed.
   */
  async check(engine: ActionEngine, platform: Platform, signal: AbortSignal): Promise<EndStateFindings> {
    const { t } = this;
    const notes: string[] = [];
    const problems: string[] = [];
    const fail = (note: string): void => {
      problems.push(note);
    };
    const byPid = new Map<number, NodeRecord[]>();
    for (const record of this.nodes.values()) byPid.set(record.pid, [...(byPid.get(record.pid) ?? []), record]);
    const apps = await platform.apps.list().catch(() => undefined);
    for (const [pid, records] of byPid) {
      signal.throwIfAborted();
      await this.checkNodes(engine, platform, pid, records, signal, fail, notes);
    }
    for (const record of this.windows.values()) {
      const app = apps?.find((each) => each.pid === record.pid);
      const count = app?.windows.length ?? 0;
      if (!record.ok) fail(t('endState.closeFailed'));
      else if (apps === undefined) fail(t('endState.windowsUnknown'));
      else if (count > record.windowsAfter) fail(t('endState.windowsBack', { count }));
      else notes.push(t('endState.windowClosed', { count }));
    }
    const quit = new Set([...this.nodes.values()].filter((record) => record.exited).map((record) => record.pid));
    for (const [pid, ok] of this.focusedApps) {
      if (!ok) fail(t('endState.switchFailed'));
      else if (quit.has(pid)) notes.push(t('endState.switchedClosed', { pid }));
      else if (!(await platform.apps.isAlive(pid).catch(() => false))) fail(t('endState.switchedGone', { pid }));
    }
    for (const tool of this.unchecked) notes.push(t('endState.unchecked', { tool }));
    return { check: { confirmed: problems.length === 0, notes: [...problems, ...notes] }, problems };
  }

  private async checkNodes(
    engine: ActionEngine,
    platform: Platform,
    pid: number,
    records: NodeRecord[],
    signal: AbortSignal,
    fail: (note: string) => void,
    notes: string[],
  ): Promise<void> {
    const { t } = this;
    const alive = await platform.apps.isAlive(pid).catch(() => false);
    if (!alive) {
      // One action meant to end the app (Quit) explains why the others can no longer be seen.
      const quit = records.find((record) => record.exited);
      for (const record of records) {
        if (record.exited) notes.push(t('endState.appClosedAsExpected', { label: record.label }));
        else if (quit !== undefined) notes.push(t('endState.notRecheckedQuit', { label: record.label }));
        else fail(t('endState.appGone', { pid, label: record.label }));
      }
      return;
    }
    let index: Map<string, IndexedNode>;
    try {
      index = indexTree((await engine.observe(pid, { fresh: true, bounds: 'none', signal })).root);
    } catch (error) {
      if (signal.aborted) throw error;
      fail(t('endState.readFailed', { error: cut(error instanceof Error ? error.message : String(error), ERROR_CHARS) }));
      return;
    }
    for (const record of records) {
      if (!record.ok) {
        const { action, label, error } = record;
        fail(error === undefined ? t('endState.lastAttemptFailed', { action, label }) : t('endState.lastAttemptFailedWhy', { action, label, error }));
      } else if (record.exited) {
        fail(t('endState.shouldHaveClosed', { label: record.label }));
      } else if (!record.changed && record.action !== 'scroll') {
        fail(t('endState.noChange', { action: record.action, label: record.label }));
      } else if (record.gone || record.after === undefined) {
        notes.push(t(record.gone ? 'endState.wentAway' : 'endState.nothingToCompare', { label: record.label }));
      } else {
        const now = index.get(record.id);
        // A later action that changed the app may rightly undo this one: Save closes the dialog
        // holding the field just set, a submit resets its form, return clears a search field.
        const later = records.some((other) => other.call > record.call && other.ok && other.changed);
        if (now === undefined) {
          if (later) notes.push(t('endState.goneAfterLater', { label: record.label }));
          else fail(t('endState.gone', { label: record.label }));
        } else if (this.replacedByLaterChoice(record, now, records, index)) notes.push(t('endState.replaced', { label: record.label }));
        else {
          const found = differences(record.after, now.node, t);
          const asked = record.asked;
          // What the app reports is not always what was asked: a slider clamps 150 to 100.
          if (found.length === 0 && asked !== undefined && !now.node.states.secret && !sameValue(asked, now.node.value)) {
            fail(t('endState.notAsked', { label: record.label, now: show(now.node.value, t), asked: show(asked, t) }));
          } else if (found.length === 0) notes.push(t('endState.asSet', { label: record.label }));
          else if (later) notes.push(t('endState.changedLater', { label: record.label, changes: found.join(', ') }));
          else fail(t('endState.changedBack', { label: record.label, changes: found.join(', ') }));
        }
      }
    }
  }

  /** Picking radio B after radio A unchecks A; that is the later action's doing, not a failure. */
  private replacedByLaterChoice(record: NodeRecord, now: IndexedNode, records: NodeRecord[], index: Map<string, IndexedNode>): boolean {
    if (!CHOICE_ROLES.has(now.node.role)) return false;
    return records.some((other) => {
      if (other.order <= record.order) return false;
      const sibling = index.get(other.id);
      return sibling !== undefined && sibling.parentId === now.parentId && sibling.node.role === now.node.role;
    });
  }
}

/** The sentence appended to an answer whose result could not be confirmed, for the user. */
export function unconfirmedNote(problems: readonly string[], language: Language = 'en'): string {
  return agentText(language)('answers.unconfirmed', { problems: problems.join('; ') });
}

/**
 * The same sentence for the history, where the model reads it later as its own words: no
 * app text in it (names and values could carry instructions), only how many checks failed.
 */
export function unconfirmedSummary(problems: readonly string[], language: Language = 'en'): string {
  return agentText(language)('answers.unconfirmedCount', { count: problems.length });
}
