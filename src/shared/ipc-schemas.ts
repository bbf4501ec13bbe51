import { z } from 'zod';
import { CHANNELS, DOCTOR_CHECK_IDS, type DoctorReport, type IpcChannel } from './ipc';
import { WORKFLOW_REQUEST_SCHEMAS } from './workflow-ipc-schemas';
import { APPROVAL_DECISIONS } from './settings';
import { SETTINGS_PATCH_SCHEMA } from './settings-derive';

/** Long enough for a pasted document, short enough that a runaway renderer can't flood the host. */
export const MAX_ASK_CHARS = 20_000;

const noPayload = z.undefined();

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
  [CHANNELS.updateSettings]: SETTINGS_PATCH_SCHEMA,
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
