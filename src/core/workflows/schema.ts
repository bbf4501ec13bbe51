import { z } from 'zod';
import { ROLES } from '../../shared/ui-node';
import { MAX_IDENTITY_CHARS } from '../platform/identity-text';
import { MAX_TEXT_CHARS } from '../tools/bounds';

/**
 * The workflow file, version 1. One zod schema is the source of truth: files are validated by
 * it and docs/workflow.schema.json is derived from it (a test holds the two equal).
 * Every string and list is bounded: a workflow file is hostile input, like anything a user
 * downloads, and an unbounded name would be matched against every node of every tree.
 */
export const WORKFLOW_FORMAT = 'deskpilot-workflow';
export const WORKFLOW_VERSION = 1;

/** Largest workflow file read, in bytes. */
export const MAX_WORKFLOW_BYTES = 1_048_576;
export const MAX_STEPS = 500;
export const MAX_PARAMETERS = 64;
/** Ancestors kept in a locator's path: deeper ones say nothing a closer one does not. */
export const MAX_PATH = 32;
export const MAX_WAIT_MS = 120_000;
const NAME_CHARS = 1_000;
const WORD_CHARS = 100;

const text = (max = NAME_CHARS): z.ZodString => z.string().max(max);
const word = z.string().min(1).max(WORD_CHARS);
/** An app's identity string: what the OS listed (see platform/identity-text.ts), so no control characters. */
const identity = z
  .string()
  .min(1)
  .max(MAX_IDENTITY_CHARS)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f-\u009f]+$/, 'no control characters');

/** A parameter's name, as `{{name}}` uses it: a letter, then letters, digits, `_` or `-`. */
export const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export const boundsSchema = z
  .strictObject({
    x: z.number().finite(),
    y: z.number().finite(),
    width: z.number().finite().min(0),
    height: z.number().finite().min(0),
  })
  .meta({ id: 'Bounds' });

export const windowLocatorSchema = z
  .strictObject({
    role: z.enum(['window', 'dialog']).describe('The window role, as the normalized tree names it.'),
    title: text().optional().describe('The title when it was recorded; used only when titlePattern is absent.'),
    titlePattern: text()
      .optional()
      .describe("A glob over the title: '*' stands for any run of characters ('* - Mousepad'). Titles carry document names, so patterns beat titles."),
  })
  .describe('The window a target sits in.')
  .meta({ id: 'WindowLocator' });

const pathEntry = z.strictObject({ role: z.enum(ROLES), name: text() });

export const locatorSchema = z
  .strictObject({
    window: windowLocatorSchema.optional(),
    role: z.enum(ROLES).describe('The normalized role (button, textfield, checkbox, …).'),
    name: text().describe("The accessible name. For a field this is usually its label's text."),
    nameFrom: z
      .enum(['label', 'geometry'])
      .optional()
      .describe("'label': the name is the text of a label the app ties to the control; 'geometry': the nearest label beside it (a guess)."),
    toolkitId: text(WORD_CHARS * 4)
      .optional()
      .describe("The toolkit's own id where it has one (AT-SPI accessible id, AXIdentifier): the strongest identity."),
    path: z
      .array(pathEntry)
      .max(MAX_PATH)
      .optional()
      .describe('Ancestors between the window and the target, outermost first, by role and name. Exact identity requires it; the second rung relaxes it.'),
    ordinal: z
      .strictObject({ index: z.number().int().min(0), of: z.number().int().min(2) })
      .optional()
      .describe('Position among identical siblings (same role and name under one parent), recorded only when there were siblings; a last resort.'),
    bounds: boundsSchema.optional().describe('Where it was, relative to its window: only ever used to break a tie.'),
  })
  .describe('How a step finds its element again.')
  .meta({ id: 'Locator' });

export const effectSchema = z
  .strictObject({
    value: z
      .union([text(MAX_TEXT_CHARS), z.number().finite()])
      .optional()
      .describe("The target's value afterwards; may hold {{parameters}}."),
    states: z
      .strictObject({
        checked: z.boolean().optional(),
        selected: z.boolean().optional(),
        expanded: z.boolean().optional(),
        focused: z.boolean().optional(),
      })
      .optional()
      .describe('States of the target afterwards.'),
    windowOpened: windowLocatorSchema.optional(),
    windowClosed: windowLocatorSchema.optional(),
    gone: z.boolean().optional().describe('The target is no longer in the tree afterwards.'),
    appExited: z.boolean().optional(),
    changed: z.boolean().optional().describe('Something about the target changed, when nothing more specific was seen.'),
  })
  .describe('What the step is checked against after it acts; a step whose effect does not appear halts the run.')
  .meta({ id: 'Effect' });

const common = {
  intent: text().optional().describe('What the step is for, in words: printed in plans and halt reports.'),
  timeoutMs: z.number().int().min(0).max(MAX_WAIT_MS).optional().describe('How long to wait for the target and for the effect.'),
  settleMs: z.number().int().min(0).max(10_000).optional(),
};
const acting = { ...common, target: locatorSchema, expect: effectSchema.optional() };

export const stepSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('click'), ...acting }),
  z.strictObject({ action: z.literal('set_value'), ...acting, value: z.union([text(MAX_TEXT_CHARS), z.number().finite()]) }),
  z.strictObject({ action: z.literal('type'), ...acting, text: text(MAX_TEXT_CHARS).min(1) }),
  z.strictObject({
    action: z.literal('key'),
    ...common,
    target: locatorSchema.optional(),
    expect: effectSchema.optional(),
    key: word,
    modifiers: z.array(word).max(4).optional(),
  }),
  z.strictObject({
    action: z.literal('scroll'),
    ...acting,
    direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    amount: z.number().int().min(1).max(100).optional(),
  }),
  z.strictObject({ action: z.literal('drag'), ...acting, to: locatorSchema }),
  z.strictObject({
    action: z.literal('wait'),
    ...common,
    target: locatorSchema,
    expect: effectSchema.optional().describe('Also wait for these states or value on it.'),
  }),
  z.strictObject({
    action: z.literal('wait_window'),
    ...common,
    window: windowLocatorSchema,
    gone: z.boolean().optional().describe('Wait for the window to close instead of to open.'),
  }),
]);

export const parameterSchema = z.strictObject({
  description: text().optional(),
  default: text(MAX_TEXT_CHARS).optional(),
  secret: z.boolean().optional().describe('A password or similar: never given a default, never printed.'),
});

export const workflowSchema = z
  .strictObject({
    $schema: text().optional(),
    format: z.literal(WORKFLOW_FORMAT),
    version: z.literal(WORKFLOW_VERSION),
    name: text(200).min(1),
    description: text(4_000).optional(),
    app: z
      .strictObject({
        name: text().optional().describe('The app name as `deskpilot apps` lists it.'),
        desktopId: identity
          .optional()
          .describe('The desktop entry id (org.xfce.mousepad.desktop) or macOS bundle id (com.apple.TextEdit). Replay looks for the app by it first.'),
        processName: identity.optional().describe("The app's program (mousepad, soffice.bin). Replay looks for the app by it when no desktop id matches."),
        toolkit: identity
          .optional()
          .describe('The toolkit and version the app reported when recorded (gtk 3.24.38, Qt 5.15.8). Informative: replay does not match by it.'),
      })
      .describe('The app the workflow was recorded in; --app or --pid overrides it. Replay finds it by desktopId, then processName, then name.'),
    parameters: z
      .record(z.string().regex(PARAMETER_NAME), parameterSchema)
      .optional()
      .refine((value) => value === undefined || Object.keys(value).length <= MAX_PARAMETERS, `at most ${MAX_PARAMETERS} parameters`),
    steps: z.array(stepSchema).min(1).max(MAX_STEPS),
  })
  .describe('A Deskpilot workflow: steps recorded once and replayed without a model.');

export type Workflow = z.infer<typeof workflowSchema>;
export type WorkflowStep = z.infer<typeof stepSchema>;
export type Locator = z.infer<typeof locatorSchema>;
export type WindowLocator = z.infer<typeof windowLocatorSchema>;
export type Effect = z.infer<typeof effectSchema>;
export type Parameter = z.infer<typeof parameterSchema>;
