import { isDeskpilotError } from '../../../shared/errors';
import { itemText, showsChoice } from '../../actions/choose-option';
import type { UiNode } from '../../../shared/ui-node';
import type { ActionEngine } from '../../actions/engine';
import { refind } from '../../actions/locate';
import { systemClock, type Clock } from '../../clock';
import type { HitElement, Modifier } from '../../platform/types';
import { diffNodes } from '../../ui/diff';
import { findById, indexTree, shallow, walk } from '../../ui/tree-index';
import { recordEffect } from '../effect';
import { parameterName } from '../from-actions';
import { locatorOf } from '../locator';
import { WORKFLOW_FORMAT, WORKFLOW_VERSION, type Effect, type Parameter, type Workflow, type WorkflowStep } from '../schema';
import { windowsIn } from '../target-wait';
import { placesOf } from '../tree-places';
import { TEXT_ROLES, elementAt, elementMatching } from './hit-test';
import { comboOf, itemAt } from './choice';

/** What the user did, as an input source reports it; `hit` is the element the platform's own hit-testing found under a click. */
export type DemoEvent = { kind: 'button'; x: number; y: number; hit?: HitElement } | { kind: 'key'; key: string; modifiers: Modifier[] };

export interface RecorderOptions {
  engine: ActionEngine;
  pid: number;
  clock?: Clock;
  /** How long after an event the app gets before its effect is read. */
  settleMs?: number;
}

/** Keys that edit the text being typed: they fold into the field's final value, not steps of their own. */
const EDITING_KEYS = new Set(['backspace', 'delete', 'left', 'right', 'home', 'end', 'space']);
const MAX_RECORDED_STEPS = 500;

/**
 * Turns a demonstration into steps. Each click is mapped to the element under the pointer in
 * the tree as it was just before (so a button that closes its dialog is still found); typing
 * is merged into one `set_value` on the focused field, with the value the tree shows once the
 * typing is over, and a parameter for it; a secret field gets a secret parameter and its text
 * is never read. Each step's `expect` comes from the tree after it, as for agent runs.
 */
export class DemonstrationRecorder {
  private readonly clock: Clock;
  private readonly settleMs: number;
  private snapshot: UiNode | undefined;
  private typing: UiNode | undefined;
  /** The combo box the last click landed on: its list may be open. */
  private openCombo: { id: string; name: string } | undefined;
  private readonly steps: WorkflowStep[] = [];
  private readonly parameters: Record<string, Parameter> = {};
  private queue: Promise<void> = Promise.resolve();
  /** Problems met while recording (an event the tree could not place), for the user to read. */
  readonly notes: string[] = [];

  constructor(private readonly options: RecorderOptions) {
    this.clock = options.clock ?? systemClock;
    this.settleMs = options.settleMs ?? 150;
  }

  /** Takes the first look at the app. */
  async start(): Promise<void> {
    this.snapshot = await this.read();
  }

  /** Handles events one at a time, in the order they came. */
  push(event: DemoEvent): Promise<void> {
    this.queue = this.queue
      .then(() => this.handle(event))
      .catch((error: unknown) => void this.notes.push(`event dropped: ${error instanceof Error ? error.message : String(error)}`));
    return this.queue;
  }

  /** Resolves once every event pushed so far is handled. */
  async drain(): Promise<void> {
    await this.queue.catch(() => undefined);
  }

  /** Reads the app again while idle, so the next click is placed in the tree as the user sees it. */
  refresh(): Promise<void> {
    this.queue = this.queue.then(async () => {
      if (this.typing === undefined) this.snapshot = await this.read();
    });
    return this.queue.catch(() => undefined);
  }

  /** The workflow so far, after the last event and any typing in progress are handled. */
  async finish(name: string, app: Workflow['app']): Promise<Workflow> {
    await this.queue.catch(() => undefined);
    await this.flushTyping().catch(() => undefined);
    return {
      format: WORKFLOW_FORMAT,
      version: WORKFLOW_VERSION,
      name,
      description: 'Recorded from a demonstration.',
      app,
      ...(Object.keys(this.parameters).length === 0 ? {} : { parameters: this.parameters }),
      steps: this.steps,
    };
  }

  private async read(): Promise<UiNode> {
    return (await this.options.engine.observe(this.options.pid, { bounds: 'interactive', fresh: true })).root;
  }

  private async handle(event: DemoEvent): Promise<void> {
    const before = this.snapshot ?? (await this.read());
    if (event.kind === 'button') return this.click(before, event.x, event.y, event.hit);
    const printable = event.key.length === 1 && !event.modifiers.some((modifier) => modifier !== 'shift');
    if (printable || (EDITING_KEYS.has(event.key) && event.modifiers.length === 0)) {
      this.typing ??= [...walk(before)].find((node) => node.states.focused && TEXT_ROLES.has(node.role));
      return;
    }
    await this.flushTyping();
    if (event.key === 'tab') {
      this.snapshot = await this.settled();
      return;
    }
    const start = this.snapshot ?? before;
    const focused = [...walk(start)].find((node) => node.states.focused && node.role !== 'window' && node.role !== 'application');
    const after = await this.settled();
    const { expect, locator } = this.observed(start, after, focused);
    this.add({
      action: 'key',
      key: event.key,
      ...(event.modifiers.length === 0 ? {} : { modifiers: event.modifiers }),
      ...(locator === undefined ? {} : { target: locator }),
      ...(expect === undefined ? {} : { expect }),
    });
  }

  private async click(before: UiNode, x: number, y: number, hit?: HitElement): Promise<void> {
    // A combo box clicked last has its list open: a click on one of its items is a choice.
    // By id, else by name: a list that opens as a window of its own can renumber the app's windows, and the ids with them.
    const last = this.openCombo;
    const open =
      last === undefined ? undefined : (findById(before, last.id) ?? [...walk(before)].find((each) => each.role === 'combobox' && each.name === last.name));
    this.openCombo = undefined;
    const item = open === undefined ? undefined : itemAt(before, open, x, y);
    if (open !== undefined && item !== undefined) {
      if (this.typing !== undefined) await this.flushTyping();
      return this.choose(before, await this.settled(), open, item);
    }
    const found = (hit === undefined ? undefined : elementMatching(before, hit)) ?? elementAt(before, x, y);
    // A field the platform says is a password field is one, whatever the tree read before said (on the safe side: its text is never read).
    const node = found !== undefined && hit?.secret === true && TEXT_ROLES.has(found.role) ? { ...found, states: { ...found.states, secret: true } } : found;
    if (node === undefined) {
      this.notes.push(`a click at ${x},${y} landed on nothing the tree can name; not recorded`);
      return;
    }
    // An item of a list its combo box holds (GTK 3's menu, GTK 4's popover), open though the box's click was missed
    // (opened from the keyboard, or before the recording began): still a choice.
    const owner = comboOf(before, node);
    if (owner !== undefined) {
      if (this.typing !== undefined) await this.flushTyping();
      return this.choose(before, await this.settled(), owner, node);
    }
    if (this.typing !== undefined && this.typing.id !== node.id) await this.flushTyping();
    let after: UiNode;
    try {
      after = await this.settled();
    } catch (error) {
      // A Quit button: the click ended the app, and that is its effect.
      if (!isDeskpilotError(error) || error.code !== 'PROCESS_EXITED') throw error;
      const place = placesOf(before).find((each) => each.node.id === node.id);
      if (place !== undefined) this.add({ action: 'click', target: locatorOf(place), expect: { appExited: true } });
      return;
    }
    if (node.role === 'combobox') this.openCombo = { id: node.id, name: node.name };
    if (TEXT_ROLES.has(node.role) && node.role !== 'combobox') {
      // A click into a field only puts the caret there; what is typed next is the step.
      this.typing = node;
      return;
    }
    const { expect, locator } = this.observed(before, after, node);
    // A click the tree shows nothing of (a Save that writes a file) gets an empty expect: replay checks only that it ran.
    if (locator !== undefined) this.add({ action: 'click', target: locator, expect: expect ?? {} });
  }

  /**
   * An item chosen from a combo box's list: one `set_value` on the box, with the item as a
   * parameter's default, in place of the click that opened the list.
   */
  private choose(before: UiNode, after: UiNode, combo: UiNode, item: UiNode): void {
    const place = placesOf(before).find((each) => each.node.id === combo.id);
    if (place === undefined) {
      this.notes.push(`a choice in combo box "${combo.name}" could not be placed in the tree; not recorded`);
      return;
    }
    const last = this.steps.at(-1);
    if (last?.action === 'click' && last.target?.role === 'combobox' && last.target.name === combo.name) this.steps.pop();
    const name = parameterName(combo.name || 'choice', new Set(Object.keys(this.parameters)));
    // GTK 4's rows are unnamed and hold a label: the choice is the text the row shows.
    const chosen = itemText(item);
    this.parameters[name] = { description: combo.name || 'a choice', default: chosen };
    // The box's value after the choice, when it shows one, is what replay checks; else that it changed.
    const box = indexTree(after).get(combo.id)?.node;
    this.add({
      action: 'set_value',
      target: locatorOf(place),
      value: `{{${name}}}`,
      ...(box !== undefined && showsChoice(box, chosen) ? { expect: { value: `{{${name}}}` } } : {}),
    });
  }

  private async flushTyping(): Promise<void> {
    const field = this.typing;
    this.typing = undefined;
    if (field === undefined) return;
    const before = this.snapshot;
    const after = await this.settled();
    if (before === undefined) return;
    const place = placesOf(before).find((each) => each.node.id === field.id);
    const now = indexTree(after).get(field.id)?.node ?? refind(after, { node: field, parentId: undefined, parentSlot: '', roleIndex: 0, depth: 0 });
    if (place === undefined || now === undefined) {
      this.notes.push(`typing into ${field.role} "${field.name}" could not be placed in the tree; not recorded`);
      return;
    }
    const secret = field.states.secret === true;
    if (!secret && (now.value === undefined || now.value === field.value)) return;
    const name = parameterName(field.name || (secret ? 'password' : 'text'), new Set(Object.keys(this.parameters)));
    this.parameters[name] = secret
      ? { description: `${field.name || 'password'} (secret)`, secret: true }
      : { description: field.name || field.role, default: String(now.value) };
    this.add({ action: 'set_value', target: locatorOf(place), value: `{{${name}}}`, ...(secret ? {} : { expect: { value: `{{${name}}}` } }) });
  }

  private observed(before: UiNode, after: UiNode, node: UiNode | undefined): { expect: Effect | undefined; locator: ReturnType<typeof locatorOf> | undefined } {
    const place = node === undefined ? undefined : placesOf(before).find((each) => each.node.id === node.id);
    const found = node === undefined ? undefined : (indexTree(after).get(node.id)?.node ?? undefined);
    const changes = node === undefined ? [] : found === undefined ? ['the node is gone from the tree'] : diffNodes(shallow(node), shallow(found));
    const expect = recordEffect({
      result: {
        success: true,
        nodeBefore: node === undefined ? null : shallow(node),
        nodeAfter: found === undefined ? null : shallow(found),
        changed: changes.length > 0,
        changes,
      },
      windowsBefore: windowsIn(before),
      windowsAfter: windowsIn(after),
      exited: false,
    });
    return { expect, locator: place === undefined ? undefined : locatorOf(place) };
  }

  private async settled(): Promise<UiNode> {
    await this.clock.sleep(this.settleMs);
    this.snapshot = await this.read();
    return this.snapshot;
  }

  private add(step: WorkflowStep): void {
    if (this.steps.length < MAX_RECORDED_STEPS) this.steps.push(step);
  }
}
