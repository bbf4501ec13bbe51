import { DeskpilotError, NotSettableError, ProcessExitedError } from '../../../shared/errors';
import type { AppInfo } from '../../../shared/ui-node';
import type { RawNode } from '../../ui/ids';
import { genericTraits } from '../traits';
import type { AccessibilityBackend, AppListing, InputBackend, Modifier, Platform, Point, PrimaryModifier, ScrollDirection } from '../types';
import { FixtureApp } from './fixture-app';
import { readChildrenOf } from './tree-children';

export const FIXTURE_PID = 4242;
export const NOTES_PID = 4243;

/** Real frameworks ignore a drag that jumps; the fake does too, so interpolation is tested. */
const MIN_DRAG_MOVES = 3;

/**
 * An in-memory desktop: the fixture app plus a second app, a pointer and a keyboard.
 * Native actions and synthetic input both change widget state, so the engine's
 * verify step sees real effects. `kill` makes an app vanish like an exited process.
 */
export class FakePlatform implements Platform {
  readonly name = 'fake' as const;
  /** Ctrl, as on Linux; a test sets meta to drive the engine as macOS would. */
  primaryModifier: PrimaryModifier = genericTraits.primaryModifier;
  readonly appIdentity = genericTraits.appIdentity;
  readonly namedIdentity = genericTraits.namedIdentity;
  readonly diagnose = genericTraits.diagnose;
  readonly appDataDir = genericTraits.appDataDir;
  readonly apps: AppListing;
  readonly accessibility: AccessibilityBackend;
  readonly input: InputBackend;
  readonly running = new Map<number, FixtureApp>([
    [FIXTURE_PID, new FixtureApp()],
    [NOTES_PID, new FixtureApp('Notes')],
  ]);
  frontmostPid = FIXTURE_PID;
  /** False makes activate() fail, like a window manager that refuses to raise a window. */
  activatable = true;
  /** Every window restoreWindow() gave back after synthetic input, in order. */
  readonly restores: number[] = [];
  /** Every pid activate() was asked to bring to the front, in order. */
  readonly activations: number[] = [];
  pointer: Point = { x: 0, y: 0 };
  /** Every synthetic input call, in order, for tests that check what was sent. */
  readonly inputLog: string[] = [];
  private drag: { source: string; moves: number } | undefined;

  constructor() {
    this.apps = {
      list: () => Promise.resolve([...this.running.keys()].map((pid) => this.appInfo(pid))),
      frontmost: () => Promise.resolve(this.running.has(this.frontmostPid) ? this.appInfo(this.frontmostPid) : undefined),
      isAlive: (pid) => Promise.resolve(this.running.has(pid)),
      activate: (pid) => {
        this.activations.push(pid);
        if (!this.activatable || !this.running.has(pid)) return Promise.resolve(false);
        this.frontmostPid = pid;
        return Promise.resolve(true);
      },
      // The fake's window handle is its app's pid.
      activeWindow: () => Promise.resolve(this.running.has(this.frontmostPid) ? this.frontmostPid : undefined),
      restoreWindow: (window) => {
        this.restores.push(window);
        if (this.running.has(window)) this.frontmostPid = window;
        return Promise.resolve();
      },
    };
    this.accessibility = {
      getTree: (pid) => this.attempt(() => this.app(pid).tree(pid) as RawNode),
      press: (ref, node) => this.attempt(() => node.actions.length > 0 && this.target(ref).app.press(this.target(ref).key)),
      setValue: (ref, _node, value) => this.attempt(() => this.setValue(ref, value)),
      focus: (ref) => this.attempt(() => this.target(ref).app.focus(this.target(ref).key)),
      readSubtree: (ref) => this.attempt(() => this.subtree(ref)),
      // Over getTree as it stands, so a test that swaps getTree reads the same tree on demand.
      readChildren: async (pid, requests) => readChildrenOf(await this.accessibility.getTree(pid), requests),
      shortcuts: (pid) =>
        this.attempt(() => {
          const app = this.app(pid);
          app.menuReads += 1;
          return app.menu.map((shortcut) => ({ ...shortcut }));
        }),
    };
    this.input = {
      click: (point) => this.click(point),
      moveMouse: (point) => this.record(`move ${point.x},${point.y}`, () => this.move(point)),
      mouseDown: () => this.record('down', () => this.mouseDown()),
      mouseUp: () => this.record('up', () => this.mouseUp()),
      typeText: (text, signal) => {
        signal?.throwIfAborted();
        return this.record(`type ${text}`, () => this.typeText(text));
      },
      pressKey: (key, modifiers) => this.record(`key ${[...modifiers, key].join('+')}`, () => this.pressKey(key, modifiers)),
      scroll: (point, direction, amount) => this.record(`scroll ${direction} ${amount}`, () => this.scroll(point, direction, amount)),
      pointer: () => Promise.resolve({ ...this.pointer }),
    };
  }

  kill(pid: number): void {
    this.running.delete(pid);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  app(pid: number): FixtureApp {
    const app = this.running.get(pid);
    if (app === undefined) throw new ProcessExitedError(pid);
    return app;
  }

  private appInfo(pid: number): AppInfo {
    const app = this.app(pid);
    return { pid, name: app.title, windows: [{ title: app.title, focused: pid === this.frontmostPid }], frontmost: pid === this.frontmostPid };
  }

  /** A ref is `pid/key`; a dead pid throws ProcessExitedError like a real backend. */
  private target(ref: unknown): { app: FixtureApp; key: string } {
    const [pid, key] = String(ref).split('/');
    return { app: this.app(Number(pid)), key: key ?? '' };
  }

  /** One node as the app shows it now; a node that is gone fails like a dead AT-SPI object. */
  private subtree(ref: unknown): RawNode {
    const pid = Number(String(ref).split('/')[0]);
    const stack: RawNode[] = [this.app(pid).tree(pid)];
    while (stack.length > 0) {
      const node = stack.pop() as RawNode;
      if (node.ref === ref) return node;
      stack.push(...(node.children ?? []));
    }
    throw new DeskpilotError('NODE_NOT_FOUND', 'the element no longer exists in the app');
  }

  private setValue(ref: unknown, value: string | number): void {
    const { app, key } = this.target(ref);
    if (!app.setValue(key, value)) throw new NotSettableError();
  }

  private attempt<T>(act: () => T): Promise<T> {
    try {
      return Promise.resolve(act());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private record(entry: string, act: () => void): Promise<void> {
    this.inputLog.push(entry);
    return this.attempt(act);
  }

  private click(point: Point): Promise<void> {
    return this.record(`click ${point.x},${point.y}`, () => {
      this.pointer = point;
      const app = this.app(this.frontmostPid);
      const hit = app.hitTest(point);
      if (hit === undefined) return;
      if (!app.press(hit)) app.focus(hit);
    });
  }

  private move(point: Point): void {
    this.pointer = point;
    if (this.drag !== undefined) this.drag.moves += 1;
  }

  private mouseDown(): void {
    const hit = this.app(this.frontmostPid).hitTest(this.pointer);
    this.drag = hit === 'source' ? { source: hit, moves: 0 } : undefined;
  }

  private mouseUp(): void {
    const app = this.app(this.frontmostPid);
    if (this.drag !== undefined && this.drag.moves >= MIN_DRAG_MOVES && app.hitTest(this.pointer) === 'drop') {
      app.drop(this.drag.source);
    }
    this.drag = undefined;
  }

  private focusedText(): { app: FixtureApp; key: string } | undefined {
    const app = this.app(this.frontmostPid);
    const key = app.focusedKey;
    return key !== undefined && app.get(key).role === 'textfield' ? { app, key } : undefined;
  }

  private typeText(text: string): void {
    const target = this.focusedText();
    if (target === undefined) return;
    const widget = target.app.get(target.key);
    widget.value = target.app.allSelected ? text : `${String(widget.value ?? '')}${text}`;
    target.app.allSelected = false;
  }

  private pressKey(key: string, modifiers: Modifier[]): void {
    const app = this.app(this.frontmostPid);
    const target = this.focusedText();
    if (key === 'a' && (modifiers.includes('ctrl') || modifiers.includes('meta'))) {
      if (target !== undefined) app.allSelected = true;
    } else if (key === 'backspace' && target !== undefined) {
      const widget = app.get(target.key);
      widget.value = app.allSelected ? '' : String(widget.value ?? '').slice(0, -1);
      app.allSelected = false;
    } else if ((key === 'return' || key === 'space') && app.focusedKey !== undefined) {
      app.press(app.focusedKey);
    }
  }

  private scroll(point: Point, direction: ScrollDirection, amount: number): void {
    const app = this.app(this.frontmostPid);
    const hit = app.hitTest(point);
    if (hit === 'list' || hit?.startsWith('item:')) app.scroll(direction, amount);
  }
}
