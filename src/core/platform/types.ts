import type { DoctorCheck } from '../../shared/ipc';
import type { AppInfo, Bounds, Role, UiNode } from '../../shared/ui-node';
import type { RawNode } from '../ui/ids';

export interface Point {
  x: number;
  y: number;
}

export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

/** Canonical modifiers, after platform aliases (cmd, option, super, …) are resolved. */
export type Modifier = 'ctrl' | 'alt' | 'shift' | 'meta';

export type BoundsMode = 'none' | 'interactive' | 'all';

export interface TreeOptions {
  maxDepth?: number;
  maxNodes?: number;
  /**
   * Which nodes get on-screen bounds: 'none', 'interactive' (nodes input can target, and
   * windows) or 'all'. Each costs one call on AT-SPI, so Linux defaults to 'none' and reads a
   * node's bounds when an action needs them; the fake platform always has them.
   */
  bounds?: BoundsMode;
  /** Skip any cached tree: the action engine's verify step must see the app as it is now. */
  fresh?: boolean;
  signal?: AbortSignal;
}

/** What findNodes is asked: normalized roles (any of them; none: every role) and a name to score. */
export interface QuickQuery {
  roles?: ReadonlySet<Role>;
  name?: string;
  /** Most matches to place in the tree (each costs its chain of parents). */
  limit: number;
}

/** One node findNodes found: the node alone (no children), where it sits, and how well its name matched (0 to 1). */
export interface QuickMatch {
  node: RawNode;
  slot: { parentSlot: string; roleIndex: number };
  score: number;
}

/** A menu command's keyboard shortcut, as the app itself reports it in its accessibility data. */
export interface MenuShortcut {
  /** The menu item's name, trimmed (GTK3 pads names with spaces). */
  name: string;
  /** Normalized for the key action: modifiers in a fixed order, then the key, e.g. `ctrl+shift+s`. */
  shortcut: string;
  /** Names of the menus above the item, from the menu bar down, e.g. ['File']. */
  path?: string[];
  /** False when the item is disabled right now (Copy with nothing selected). */
  enabled: boolean;
}

/** Whose window is on top at a screen point: its pid, or its title where the window carries no pid. */
export interface WindowOwner {
  pid?: number;
  title?: string;
}

/** Running apps and their windows. */
export interface AppListing {
  list(): Promise<AppInfo[]>;
  frontmost(): Promise<AppInfo | undefined>;
  isAlive(pid: number): Promise<boolean>;
  /**
   * Brings the app's window to the front so synthetic keys reach it, and says whether the app
   * is frontmost afterwards. Optional: a platform that cannot raise windows leaves it out.
   */
  activate?(pid: number, signal?: AbortSignal): Promise<boolean>;
  /**
   * Asks the app's window to close the way its title bar's close button does (the window
   * manager's close), and says whether the request was made; the caller checks the window went.
   * Optional: a platform that cannot leaves it out, and the caller falls back to a shortcut.
   */
  closeWindow?(pid: number, signal?: AbortSignal): Promise<boolean>;
  /**
   * Whose window is on top at a screen point (undefined: no window there). The engine asks
   * before synthetic input lands at a point, so a click meant for one app never lands on another
   * app's window lying over it. Optional: without it the engine cannot check.
   */
  windowAt?(point: Point): Promise<WindowOwner | undefined>;
  /** The active top-level window as a platform handle, so synthetic input can give it back after. */
  activeWindow?(): Promise<number | undefined>;
  /** Makes a window that activeWindow() returned active again; a window that is gone is left alone. */
  restoreWindow?(window: number): Promise<void>;
  /** The process a window that activeWindow() returned belongs to, as the window system says (X11: _NET_WM_PID). */
  windowPid?(window: number): Promise<number | undefined>;
  /**
   * An app that shows accessibility a bare window until it is started again with a flag
   * (Chromium and Electron without --force-renderer-accessibility): its name and the command
   * that would start it with the flag. Undefined for any other app. Optional.
   */
  relaunchOffer?(pid: number): Promise<{ app: string; command: string } | undefined>;
  /**
   * Quits that app the way its close buttons do (never a kill: its unsaved state is its own to
   * ask about), waits for it to exit, then starts it with the flag; resolves with the new pid.
   * Throws a typed error, starting nothing, when the app is not such an app or does not quit.
   */
  relaunchAccessible?(pid: number, signal?: AbortSignal): Promise<number>;
}

/**
 * Reads the accessibility tree and acts through the accessibility-native path.
 * `ref` is the opaque handle the backend put on the RawNode it returned.
 * Each action returns false when the node offers no native path, so the engine can fall
 * back to synthetic input; it throws a typed error when the native path refused.
 */
export interface AccessibilityBackend {
  getTree(pid: number, options?: TreeOptions): Promise<RawNode>;
  /**
   * Calls sent to apps on elements so far (press, focus, extents, text, …; not tree reads), counted
   * as they are sent. With it, the engine knows that a call failing with ObjectGoneError was the
   * first call of its action, so nothing reached the app and the action may be tried once on the
   * element's new object (actions/vanished.ts). Without it, a gone object is never retried.
   */
  readonly actCalls?: number;
  press(ref: unknown, node: UiNode): Promise<boolean>;
  /** Throws NotSettableError when the element's value cannot be set. */
  setValue(ref: unknown, node: UiNode, value: string | number): Promise<void>;
  focus(ref: unknown, node: UiNode): Promise<boolean>;
  /**
   * Focuses an element for keys sent to its window alone (InputBackend.typeInWindow) without
   * activating that window, where focus() would (Chromium activates its window on GrabFocus
   * and on a caret move). 'caret-placed': the caret is where focus() leaves it; 'caret-unplaced':
   * focused, but the caret could only be moved by activating the window, so the keys move it.
   * False when the element cannot be focused that way. Optional: without it, focus() is used.
   */
  focusInBackground?(ref: unknown, node: UiNode): Promise<'caret-placed' | 'caret-unplaced' | false>;
  /**
   * Inserts text without key events: at the caret of a focused node (replacing its selection,
   * as typing does), at the end of any other. Tried before any key event (macOS: AXSelectedText).
   * False when the node takes no inserted text; the engine then types with keys.
   */
  insertText?(ref: unknown, node: UiNode, text: string): Promise<boolean>;
  /**
   * Carries out a key through its accessible meaning, tried before any key event: Return as the
   * control's confirm action or the dialog's default button, Escape as cancel, a menu shortcut as
   * its menu item's press. `ref`/`node` when the request names an element. False when the key
   * has no such meaning there; the engine then sends the key.
   */
  keyAction?(pid: number, key: string, modifiers: readonly Modifier[], ref?: unknown, node?: UiNode): Promise<boolean>;
  /**
   * Selects a node through its container's Selection (list items, tabs): false when the
   * container has none. The container's ref comes from the same tree as the node's.
   */
  select?(ref: unknown, node: UiNode, containerRef: unknown): Promise<boolean>;
  /** Whether a button is its window's default, the one Return presses (AT-SPI's IS_DEFAULT state). */
  isDefault?(ref: unknown, node: UiNode): Promise<boolean>;
  /**
   * Resolves at the app's next accessibility event (a state, name, text or children change),
   * so the engine looks for an action's effect as soon as there may be one; rejects when
   * `signal` aborts. Absent on platforms without events: the engine then polls.
   */
  nextEvent?(pid: number, signal: AbortSignal): Promise<void>;
  /**
   * Re-reads one node and its subtree, for a cheap verify. Rejects when the node is gone;
   * the engine then reads the whole tree to find where it went.
   */
  readSubtree?(ref: unknown, node: UiNode, maxNodes: number): Promise<RawNode>;
  /**
   * Finds nodes by role and name without reading the tree, where the app answers such a query
   * in one call (AT-SPI's Collection): each with the slot the whole tree would give it, so its
   * id is the tree's. Undefined: this app cannot be asked so; read the tree instead.
   */
  findNodes?(pid: number, query: QuickQuery): Promise<QuickMatch[] | undefined>;
  /** A text node's whole value, up to maxChars, where the tree holds only its start (`valueTruncated`). */
  readText?(ref: unknown, node: UiNode, maxChars: number): Promise<string>;
  /** A node's bounds on demand, for trees fetched without them. */
  bounds?(ref: unknown, node: UiNode): Promise<Bounds | undefined>;
  /**
   * The app's menu accelerators. Not part of getTree: reading them costs calls the tree
   * read should not pay, so a backend reads them on demand and caches them per app.
   */
  shortcuts?(pid: number, signal?: AbortSignal): Promise<MenuShortcut[]>;
  /**
   * Reads nodes on demand, for a read that stops at a budget (platform/outline-read.ts): for
   * each request, the children [from, from + count) of the node `ref` (undefined: the app's root
   * itself, as a one-node list), in the order getTree gives them. Each node comes without
   * `children` and with `childCount`, its number of children. One call reads a whole batch, so
   * a backend can pipeline it. Resolves undefined when this app is cheaper to read whole
   * (GTK's Cache.GetItems): the caller then uses getTree. Optional: without it, getTree.
   */
  readChildren?(pid: number, requests: readonly ChildRequest[], signal?: AbortSignal): Promise<RawNode[][] | undefined>;
  /**
   * Where the app's focused node is, for a budgeted read to reach it first: each node's index
   * among its parent's children (as readChildren lists them) on the way from the app's root
   * down. Asked in a few calls (AT-SPI's Collection), never by a walk. Undefined when unknown.
   */
  focusPath?(pid: number, signal?: AbortSignal): Promise<number[] | undefined>;
}

/** Some children of one node, for AccessibilityBackend.readChildren. */
export interface ChildRequest {
  /** The parent's ref from an earlier readChildren; undefined for the app's root. */
  ref: unknown;
  from: number;
  count: number;
}

/** Synthetic input: the fallback path, and the only path for typing, keys, scrolling and dragging. */
export interface InputBackend {
  click(point: Point): Promise<void>;
  moveMouse(point: Point): Promise<void>;
  mouseDown(): Promise<void>;
  mouseUp(): Promise<void>;
  /**
   * Types `text` key by key through the user's keyboard. Stops between two keys once `signal`
   * aborts (a long text is not typed to its end after the user pressed Stop); no key is left held.
   */
  typeText(text: string, signal?: AbortSignal): Promise<void>;
  /** False when some character has no key on this keyboard (emoji, most non-ASCII). */
  canType?(text: string): boolean;
  /** `pid` lets a platform post the key to one process (macOS) instead of the focused one. */
  pressKey(key: string, modifiers: Modifier[], pid?: number): Promise<void>;
  scroll(point: Point, direction: ScrollDirection, amount: number): Promise<void>;
  /**
   * Types into one app's window without the keyboard or the focus (X11: SendEvent to its
   * top-level window), for toolkits whose EditableText does nothing (Gecko). The keys reach the
   * element focused inside that window. False when it cannot be done (no window, a character
   * without a key); the app may still ignore the events, so the caller checks the text arrived.
   */
  typeInWindow?(pid: number, text: string, options?: { toEnd?: boolean }): Promise<boolean>;
  /** Where the pointer is now: read before synthetic input moves it, to put it back after. */
  pointer?(): Promise<Point>;
  /** The driver that carried out the last call ('nut-js', 'cgevent'), where a platform has more than one. */
  readonly lastDriver?: string;
}

/**
 * The element a pointer press landed on, as the platform's own hit-testing saw it at the press
 * (macOS: AXUIElementCopyElementAtPosition), so the recorder can place the click in its tree even
 * where bounds overlap. Its bounds are in the tree's coordinates.
 */
export interface HitElement {
  role: Role;
  bounds?: Bounds;
  /** A password field: what is typed there is recorded as a secret parameter, never read. */
  secret: boolean;
}

/** What the user did, for the workflow recorder. Buttons are numbered as X numbers them: 1 left, 2 middle, 3 right. */
export type UserInputEvent = { kind: 'button'; button: number; x: number; y: number; hit?: HitElement } | { kind: 'key'; key: string; modifiers: Modifier[] };

/**
 * The user's own pointer presses and key presses, listened to without taking them from the apps
 * (macOS: a listen-only event tap), for `workflow record`. `pid` is the app recorded: hit-testing
 * asks it. Each event goes to `onEvent` in the order it came.
 */
export interface UserInputSource {
  listen(options: { pid?: number }, onEvent: (event: UserInputEvent) => void, onError: (error: Error) => void): Promise<{ close(): void }>;
}

/** A window's pixels as RGBA rows, and where its top-left sits on the screen (in the tree's coordinates). */
export interface WindowImage {
  x: number;
  y: number;
  width: number;
  height: number;
  data: Buffer;
  /**
   * Pixels per point: 2 for a window on a Retina display, whose capture holds its backing
   * pixels while x, y and the tree's bounds are in points. width and height count pixels, so
   * the window spans width / scale points. 1 when absent.
   */
  scale?: number;
}

/** Pixels of app windows, for apps whose tree shows too little (canvas UIs, remote desktops, images). */
export interface ScreenCapture {
  /**
   * The app's frontmost window as the screen shows it. Windows of `hidePids` (Deskpilot's own)
   * never show in it. Secret fields are not blacked out here: screen-text/capture.ts does that from the tree.
   */
  captureWindow(pid: number, options?: { hidePids?: readonly number[] }): Promise<WindowImage>;
}

/** A line of text read off a window's pixels, in screen coordinates. */
export interface ScreenLine {
  text: string;
  bounds: Bounds;
  /** 0 to 1. */
  confidence: number;
}

/** Screen text for apps whose tree shows too little (see screen-text/screen-text.ts). */
export interface ScreenVision {
  /** The app's window with every secret field and Deskpilot's own windows painted black. */
  capture(pid: number): Promise<WindowImage>;
  /** The same, and its text lines; from then on the app's tree carries them as OCR nodes. */
  read(pid: number): Promise<{ image: WindowImage; lines: readonly ScreenLine[] }>;
}

export type PlatformName = 'darwin' | 'linux' | 'win32' | 'fake' | 'unavailable';

/** The modifier of an OS's own shortcuts (save, close, quit): ⌘ (meta) on macOS, ctrl elsewhere. */
export type PrimaryModifier = Extract<Modifier, 'ctrl' | 'meta'>;

/** What an app is known by when its help is looked for. */
export interface AppIdentity {
  name: string;
  /** Its program (Linux: the binary behind /proc/<pid>/exe, or the one its desktop file runs). */
  executable?: string;
  desktopId?: string;
  /** macOS: the .app bundle. */
  bundle?: string;
  /** Where the OS files an app's help: Apple Help Books inside .app bundles, or freedesktop help folders (the default). */
  helpFormat?: 'help-book' | 'freedesktop';
}

/** One part of the doctor's desktop checks: the checks it answers for, run under one deadline. */
export interface DiagnosisPart {
  ids: readonly DoctorCheck['id'][];
  deadlineMs: number;
  run(): Promise<DoctorCheck[]>;
}

/**
 * What differs between operating systems outside the accessibility calls, known without
 * connecting to anything (so the doctor and documentation search have them on a broken desktop
 * too): see platformTraits(). Every Platform carries its OS's.
 */
export interface PlatformTraits {
  /** What users' "cmd" means here, and the modifier of the close, save and quit shortcuts. */
  readonly primaryModifier: PrimaryModifier;
  /** What a running app is known by for its help: its name, and its program or bundle where the OS says. */
  appIdentity(app: Pick<AppInfo, 'name' | 'pid'>): AppIdentity;
  /** What a typed app name is known by ("text editor" is gnome-text-editor's help on Linux). */
  namedIdentity(name: string, env: Record<string, string | undefined>): AppIdentity;
  /** The doctor's desktop checks, part by part; none where there is nothing to check. */
  diagnose(env: Record<string, string | undefined>, ownPids?: readonly number[]): DiagnosisPart[];
  /** Where this OS keeps an app's data for a user whose home is `home` (the CLI's and MCP server's data dir). */
  appDataDir(env: Record<string, string | undefined>, home: string): string;
}

export interface Platform extends PlatformTraits {
  name: PlatformName;
  apps: AppListing;
  accessibility: AccessibilityBackend;
  input: InputBackend;
  /** Window capture, where the platform has it. */
  screen?: ScreenCapture;
  /** Captures with secrets blacked out and OCR, where the platform can capture (withScreenText). */
  vision?: ScreenVision;
  /** The user's input, for recording a demonstration, where the platform has a source of its own (Linux uses the X server, in the CLI). */
  userInput?: UserInputSource;
  /**
   * Desktop-session values this platform found itself because the environment lacked them
   * (Linux under an MCP client's bare environment), each with how it was found, so results can say so.
   */
  discovered?: readonly { name: string; value: string; how: string }[];
  /** Releases buses, handles and child processes. */
  close(): Promise<void>;
}
