/**
 * What main hands the automation host besides its requests: the provider settings (with the
 * decrypted key, main → host only) and the conversation it keeps for a restarted host. The
 * host's methods and events themselves are declared in host-service.ts.
 */
import { z } from 'zod';
import { TOOL_ALLOWANCES_SCHEMA } from './tool-allowances';
import { ANSWER_LANGUAGE_CHOICES, LANGUAGES } from './i18n/i18n';
import { APPROVAL_POLICIES, MAX_DOCS_FOLDERS, MAX_PATH_CHARS, PRESET_NAMES, VISION_MODES } from './settings';

/**
 * One provider message as the `openai` SDK shapes it. Main keeps them opaque: it only stores
 * the latest snapshot and hands it back to a restarted host, so only the role is checked.
 */
export const HISTORY_MESSAGE_SCHEMA = z.looseObject({ role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']) });
export type HistoryMessage = z.infer<typeof HISTORY_MESSAGE_SCHEMA>;

/** The provider part of the settings, with the decrypted key: it only ever travels main → host. */
export const HOST_SETTINGS_SCHEMA = z.strictObject({
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
  /** "Never take my pointer or keyboard": synthetic input steps are refused (see ActionEngine's askBeforeInput). */
  keepDevices: z.boolean().optional(),
  docs: z.strictObject({
    folders: z.array(z.string().max(MAX_PATH_CHARS)).max(MAX_DOCS_FOLDERS),
    appHelp: z.boolean(),
    manPages: z.boolean(),
    userFolders: z.boolean(),
  }),
});
export type HostSettings = z.infer<typeof HOST_SETTINGS_SCHEMA>;
