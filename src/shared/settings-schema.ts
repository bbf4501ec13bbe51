/**
 * Every user setting, declared once. Each field is a zod schema (the value as the user sets it)
 * with metadata that says where it may go:
 * - `secret`: a credential. The window writes it and never reads it back; main stores it
 *   encrypted as `<name>Encrypted` and the renderer sees only its `view` (a has-key flag, header
 *   names, a redacted editor text). It never reaches a log or a printed error.
 * - `host`: it reaches the automation host. `true` sends it as stored; `{ group, as }` sends it
 *   inside a group a core service takes whole (`docs` → DocsService, `agent` → the Agent's
 *   options); `'resolved'` and `{ schema, default }` mean main works the value out first (an
 *   environment variable on top, a language resolved, a secret decrypted).
 * - every field that is not secret is part of what the renderer sees.
 * settings-derive.ts turns this into the public and patch types, the IPC and host schemas,
 * electron-store's JSON schema and the defaults, so a new setting is one entry here.
 */
import { z } from 'zod';
import { ANSWER_LANGUAGE_CHOICES, LANGUAGE_CHOICES, LANGUAGES } from './i18n/i18n';
import { TOOL_ALLOWANCES_SCHEMA } from './tool-allowances';
import { APPROVAL_POLICIES, MAX_DOCS_FOLDERS, MAX_PATH_CHARS, PRESET_NAMES, VISION_MODES } from './settings';

/** The groups a core service takes whole from the host's settings. */
export const HOST_GROUPS = ['docs', 'agent'] as const;
export type HostGroup = (typeof HOST_GROUPS)[number];

/** The settings form's sections, in order. */
export const WINDOW_SECTIONS = ['model', 'hotkey', 'safety', 'data'] as const;
export type WindowSection = (typeof WINDOW_SECTIONS)[number];

/**
 * A field the settings form shows by its type alone (a checkbox, a number), in this section,
 * labelled by `settings.fields.<name>.label` and explained by `.hint` in the catalogs.
 */
export interface WindowControl {
  section: WindowSection;
}

export type HostReach = true | 'resolved' | { group: HostGroup; as: string } | { schema: z.ZodType; default: unknown };

export interface PlainField<
  S extends z.ZodType = z.ZodType,
  H extends HostReach | undefined = HostReach | undefined,
  W extends WindowControl | undefined = WindowControl | undefined,
> {
  /** Its type and bounds, as the settings file, the host and the window hold it. */
  schema: S;
  /**
   * A stricter check where a new value comes in from the window (a URL, an absolute path). The
   * file is not held to it: a file that fails its schema is reset whole, and a stale value must
   * not cost every other setting.
   */
  input?: z.ZodType<z.output<S>>;
  /** The value before the user chose one; a function when it depends on the OS. */
  default: z.output<S> | ((platform: string) => z.output<S>);
  host: H;
  window: W;
}

export interface SecretField<S extends z.ZodType = z.ZodType, V extends z.ZodRawShape = z.ZodRawShape, H extends HostReach = HostReach> {
  schema: S;
  secret: {
    /** Longest encrypted base64 text the settings file takes. */
    storedMax: number;
    /** What the renderer may know of it instead of its value. */
    view: V;
  };
  host: H;
}

export type FieldSpec = PlainField | SecretField;

function plain<S extends z.ZodType, const H extends HostReach | undefined = undefined, const W extends WindowControl | undefined = undefined>(
  schema: S,
  spec: { default: z.output<S> | ((platform: string) => z.output<S>); host?: H; input?: z.ZodType<z.output<S>>; window?: W },
): PlainField<S, H, W> {
  return { schema, default: spec.default, host: spec.host as H, window: spec.window as W, ...(spec.input === undefined ? {} : { input: spec.input }) };
}

function secret<S extends z.ZodType, V extends z.ZodRawShape, const H extends HostReach>(
  schema: S,
  spec: { storedMax: number; view: V; host: H },
): SecretField<S, V, H> {
  return { schema, secret: { storedMax: spec.storedMax, view: spec.view }, host: spec.host };
}

/**
 * Option+Space on macOS (Electron's Alt is the Option key). Elsewhere Control+Alt+Space: Alt+Space
 * opens the window menu in GNOME, KDE, Xfce and Windows, and Super+Space switches keyboard layouts
 * in GNOME; none of them binds Control+Alt+Space by default.
 */
export function defaultHotkey(platform: string): string {
  return platform === 'darwin' ? 'Alt+Space' : 'Control+Alt+Space';
}

export const DEFAULT_HISTORY_LIMIT = 500;

export const SETTINGS_FIELDS = {
  /** DESKPILOT_PROVIDER may name another: main resolves it. */
  preset: plain(z.enum(PRESET_NAMES), { default: 'openrouter', host: 'resolved' }),
  /** Empty means the preset's own URL. */
  baseUrl: plain(z.string().max(2000), { default: '', host: true, input: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(2000)]) }),
  /** Empty means the preset's default model. */
  model: plain(z.string().max(200), { default: '', host: true }),
  /** Extra request headers as `name: value; name2: value2`: an `Authorization` header is a credential. */
  headers: secret(z.string().max(4000).nullable(), {
    // 4000 characters of headers, encrypted (a few dozen bytes more) and in base64 (4/3).
    storedMax: 12_000,
    view: { headerNames: z.array(z.string()) },
    host: { schema: z.string().max(4000), default: '' },
  }),
  apiKey: secret(z.string().trim().min(1).max(1000).nullable(), {
    storedMax: 8000,
    view: { hasApiKey: z.boolean() },
    host: { schema: z.string().max(1000).optional(), default: undefined },
  }),
  /** An Electron accelerator, e.g. `Alt+Space`; Electron validates it when registering. */
  hotkey: plain(z.string().trim().min(1).max(100), { default: defaultHotkey }),
  approvalPolicy: plain(z.enum(APPROVAL_POLICIES), { default: 'confirm-risky', host: true }),
  openAtLogin: plain(z.boolean(), { default: false }),
  /**
   * "Never take my pointer or keyboard": steps that could only be done with synthetic input
   * (moving the pointer, typing keys, raising a window) are not run without the user's word.
   */
  keepDevices: plain(z.boolean(), { default: false, host: true, window: { section: 'safety' } }),
  /**
   * Most rounds of tool calls in one answer before the agent stops and says how far it got (the
   * Agent's maxIterations, 10 by default): long forms need more, a tight budget fewer.
   */
  maxSteps: plain(z.int().min(1).max(100), { default: 10, host: { group: 'agent', as: 'maxIterations' }, window: { section: 'safety' } }),
  /** How many chat entries are kept on disk. */
  historyLimit: plain(z.int().min(0).max(10_000), { default: DEFAULT_HISTORY_LIMIT }),
  /** Folders of the user's own documents that documentation search indexes; absolute paths only. */
  docsFolders: plain(z.array(z.string().max(MAX_PATH_CHARS)).max(MAX_DOCS_FOLDERS), {
    default: [],
    host: { group: 'docs', as: 'folders' },
    // A relative path would mean whatever folder the app started in.
    input: z
      .array(
        z
          .string()
          .max(MAX_PATH_CHARS)
          .regex(/^(\/|[A-Za-z]:[\\/])/, 'must be an absolute path'),
      )
      .max(MAX_DOCS_FOLDERS),
  }),
  /** Documentation search sources, each on unless turned off: the target app's help, its man pages, the folders. */
  docsAppHelp: plain(z.boolean(), { default: true, host: { group: 'docs', as: 'appHelp' } }),
  docsManPages: plain(z.boolean(), { default: true, host: { group: 'docs', as: 'manPages' } }),
  docsUserFolders: plain(z.boolean(), { default: true, host: { group: 'docs', as: 'userFolders' } }),
  /** The provider's embedding model for documentation search; empty means the preset's, if it has one. */
  embeddingModel: plain(z.string().trim().max(200), { default: '', host: true }),
  /** The UI's language: the system's, or one fixed. The host gets it resolved. */
  language: plain(z.enum(LANGUAGE_CHOICES), { default: 'system', host: { schema: z.enum(LANGUAGES), default: 'en' } }),
  /** The language answers are in: the question's own (`auto`), or one fixed apart from the UI's. */
  answerLanguage: plain(z.enum(ANSWER_LANGUAGE_CHOICES), { default: 'auto', host: true }),
  /**
   * The user's MCP servers as JSON; their env and headers often hold tokens, so the whole config
   * is a secret. The editor gets it with every env and header value shown as STORED_SECRET ('' for
   * none), and a patch's STORED_SECRET keeps the stored value; the host gets them parsed.
   */
  mcpServers: secret(z.string().max(100_000), {
    storedMax: 400_000,
    view: { mcpServers: z.string() },
    host: { schema: z.record(z.string(), z.unknown()), default: {} },
  }),
  /** MCP tools and servers the user allowed to run without asking; Settings revokes them. */
  toolAllowances: plain(TOOL_ALLOWANCES_SCHEMA, { default: [], host: true }),
  /** Whether images from tools (screenshots) go to the model; DESKPILOT_VISION may override it. */
  vision: plain(z.enum(VISION_MODES), { default: 'auto', host: 'resolved' }),
};

export type SettingsFields = typeof SETTINGS_FIELDS;
export type SettingName = keyof SettingsFields;
