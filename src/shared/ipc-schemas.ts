import { z } from 'zod';
import { TOOL_ALLOWANCES_SCHEMA } from './tool-allowances';
import { CHANNELS, DOCTOR_CHECK_IDS, type DoctorReport, type IpcChannel } from './ipc';
import { ANSWER_LANGUAGE_CHOICES, LANGUAGE_CHOICES } from './i18n/i18n';
import { WORKFLOW_REQUEST_SCHEMAS } from './workflow-ipc-schemas';
import { APPROVAL_DECISIONS, APPROVAL_POLICIES, MAX_DOCS_FOLDERS, MAX_PATH_CHARS, PRESET_NAMES, VISION_MODES } from './settings';

/** Long enough for a pasted document, short enough that a runaway renderer can't flood the host. */
export const MAX_ASK_CHARS = 20_000;

const noPayload = z.undefined();

const settingsPatch = z.strictObject({
  preset: z.enum(PRESET_NAMES).optional(),
  // The same bounds as settings-store.ts' schema, so electron-store never refuses a value this accepted.
  baseUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(2000)]).optional(),
  model: z.string().max(200).optional(),
  headers: z.string().max(4000).nullable().optional(),
  apiKey: z.string().trim().min(1).max(1000).nullable().optional(),
  // Electron validates the accelerator itself when registering; this only bounds the input.
  hotkey: z.string().trim().min(1).max(100).optional(),
  approvalPolicy: z.enum(APPROVAL_POLICIES).optional(),
  openAtLogin: z.boolean().optional(),
  keepDevices: z.boolean().optional(),
  historyLimit: z.int().min(0).max(10_000).optional(),
  // Absolute paths only: a relative one would mean whatever folder the app started in.
  docsFolders: z
    .array(
      z
        .string()
        .max(MAX_PATH_CHARS)
        .regex(/^(\/|[A-Za-z]:[\\/])/, 'must be an absolute path'),
    )
    .max(MAX_DOCS_FOLDERS)
    .optional(),
  docsAppHelp: z.boolean().optional(),
  docsManPages: z.boolean().optional(),
  docsUserFolders: z.boolean().optional(),
  embeddingModel: z.string().trim().max(200).optional(),
  language: z.enum(LANGUAGE_CHOICES).optional(),
  answerLanguage: z.enum(ANSWER_LANGUAGE_CHOICES).optional(),
  mcpServers: z.string().max(100_000).optional(),
  toolAllowances: TOOL_ALLOWANCES_SCHEMA.optional(),
  vision: z.enum(VISION_MODES).optional(),
});

/** A doctor report as the doctor's process sends it to main: checked before it reaches the window. */
export const DOCTOR_REPORT_SCHEMA: z.ZodType<DoctorReport> = z.strictObject({
  ok: z.boolean(),
  checks: z
    .array(
      z.strictObject({
        id: z.enum(DOCTOR_CHECK_IDS),
        status: z.enum(['ok', 'fail', 'skip']),
        figure: z.string().max(4000),
        fix: z.string().max(4000).optional(),
        fixKey: z.string().max(100).optional(),
        fixValues: z.record(z.string(), z.union([z.string().max(1000), z.number()])).optional(),
      }),
    )
    .max(DOCTOR_CHECK_IDS.length),
});

/** The payload each channel accepts; main rejects anything else before a handler runs. */
export const REQUEST_SCHEMAS = {
  [CHANNELS.appInfo]: noPayload,
  [CHANNELS.status]: noPayload,
  [CHANNELS.ask]: z.strictObject({ text: z.string().trim().min(1, 'the question is empty').max(MAX_ASK_CHARS) }),
  [CHANNELS.stop]: noPayload,
  [CHANNELS.approve]: z.strictObject({ id: z.string().min(1).max(200), decision: z.enum(APPROVAL_DECISIONS) }),
  [CHANNELS.history]: noPayload,
  [CHANNELS.clearHistory]: noPayload,
  [CHANNELS.settings]: noPayload,
  [CHANNELS.updateSettings]: settingsPatch,
  [CHANNELS.openPermissionSettings]: noPayload,
  [CHANNELS.openExternal]: z.strictObject({ url: z.url({ protocol: /^https$/ }).max(2000) }),
  [CHANNELS.hideWindow]: noPayload,
  [CHANNELS.restartHost]: noPayload,
  [CHANNELS.docsStatus]: noPayload,
  [CHANNELS.rebuildDocs]: noPayload,
  [CHANNELS.addDocsFolder]: noPayload,
  [CHANNELS.importMcpServers]: noPayload,
  [CHANNELS.doctor]: z.strictObject({ online: z.boolean().optional() }),
  [CHANNELS.listWorkflows]: noPayload,
  [CHANNELS.runWorkflow]: WORKFLOW_REQUEST_SCHEMAS.run,
  [CHANNELS.stopWorkflow]: noPayload,
  [CHANNELS.draftWorkflow]: WORKFLOW_REQUEST_SCHEMAS.draft,
  [CHANNELS.saveWorkflow]: WORKFLOW_REQUEST_SCHEMAS.save,
  [CHANNELS.relaunchApp]: noPayload,
} as const satisfies Record<IpcChannel, z.ZodType>;
