import { z } from 'zod';
import { ACTION_NAMES, DEFAULT_SCROLL_AMOUNT, DEFAULT_SETTLE_MS, MAX_SETTLE_MS } from './ui-action';

/**
 * The ui_action arguments as a model sees them, for the agent's tool and the MCP server's alike.
 * Flat, because tool inputs must be objects and many clients and models handle oneOf poorly;
 * parseUiActionRequest still decides what is valid, so the contract stays the engine's.
 */
export const uiActionFields = {
  action: z
    .enum(ACTION_NAMES)
    .describe(
      'click, set_value, type, key, scroll or drag. Observe → act → verify: take ids from the tree, act once, then read the result: changed: false with success: true is a soft failure (nothing observable changed; read the node again and try another way), except after scroll, which may not be observable.',
    ),
  id: z
    .string()
    .optional()
    .describe('The node to act on, by its id from the tree or a find, never a guess (for key and type: optional; without it they go to the focused control)'),
  value: z
    .union([z.number(), z.string()])
    .optional()
    .describe('set_value: the new value (text fields, sliders, spin buttons; for a combo box, the name of the item to choose); prefer it over type'),
  text: z.string().optional().describe('type: text to type at the caret, after focusing id (without id: into the control that has the focus)'),
  key: z.string().optional().describe('key: a key or combo such as return, escape, tab, ctrl+a, shift+tab'),
  modifiers: z.array(z.string()).optional().describe('key: cmd, ctrl, alt, shift'),
  direction: z.enum(['up', 'down', 'left', 'right']).optional().describe('scroll: default down'),
  amount: z.number().int().optional().describe(`scroll: notches, default ${DEFAULT_SCROLL_AMOUNT}`),
  toId: z.string().optional().describe('drag: the id of the node to drop on'),
  settleMs: z
    .number()
    .int()
    .min(0)
    .max(MAX_SETTLE_MS)
    .optional()
    .describe(`Milliseconds to wait before verifying (default ${DEFAULT_SETTLE_MS}); raise it for slow apps`),
};

export const uiActionToolSchema = z.object(uiActionFields);
