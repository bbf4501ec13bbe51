import { z } from 'zod';
import { serializeError } from '../../shared/errors';
import type { UiActionResult } from '../../shared/ui-action';
import type { Role, UiNode } from '../../shared/ui-node';
import { MIN_SCORE, textScore } from '../ui/query';
import { shallow, walk } from '../ui/tree-index';
import { riskyName, riskyText } from './risk';
import { resolveApp, targetFields } from './target';
import { defineTool, type ToolContext } from './types';
import { MAX_NAME_CHARS, MAX_TEXT_CHARS } from './bounds';
import { argText, argumentLine } from './gist';

const FIELD_ROLES = new Set<Role>(['textfield', 'textarea', 'checkbox', 'radio', 'switch', 'togglebutton', 'combobox', 'slider', 'spinbutton']);
const OPTION_ROLES = new Set<Role>(['listitem', 'menuitem', 'radio', 'treeitem', 'cell']);
/** Containers a radio group is labelled on. */
const GROUP_ROLES = new Set<Role>(['group', 'list', 'toolbar', 'tablist']);

const schema = z.strictObject({
  ...targetFields,
  fields: z
    .array(
      z.strictObject({
        label: z.string().min(1).max(MAX_NAME_CHARS).describe('The field label, matched fuzzily'),
        value: z.union([z.string().max(MAX_TEXT_CHARS), z.number(), z.boolean()]),
      }),
    )
    .min(1)
    .max(50)
    .describe('Fields to fill, in order. Checkboxes and switches take true/false; radios and selects take the option text'),
});

export interface FieldResult {
  label: string;
  success: boolean;
  message: string;
  id?: string;
  role?: Role;
  candidates?: string[];
  /**
   * The node the fill left behind, as last reported (the field, or the radio it chose), for
   * the Agent's end-state check. Left out where the verified node is a passing popup option.
   */
  nodeAfter?: UiNode;
}

function wantsChecked(value: string | number | boolean): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const text = String(value).trim().toLowerCase();
  if (['true', 'yes', 'on', 'checked', '1', 'enable', 'enabled'].includes(text)) return true;
  if (['false', 'no', 'off', 'unchecked', '0', 'disable', 'disabled', ''].includes(text)) return false;
  return undefined;
}

function best(nodes: Iterable<UiNode>, wanted: string, accept: (node: UiNode) => boolean): { node: UiNode; score: number } | undefined {
  let top: { node: UiNode; score: number } | undefined;
  for (const node of nodes) {
    if (!accept(node)) continue;
    const score = Math.max(textScore(wanted, node.name), node.description === undefined ? 0 : textScore(wanted, node.description) * 0.9);
    if (score >= MIN_SCORE && (top === undefined || score > top.score)) top = { node, score };
  }
  return top;
}

/** A field by its label, or a labelled group holding radios. The stronger match wins. */
export function locateField(root: UiNode, label: string): UiNode | undefined {
  const field = best(walk(root), label, (node) => FIELD_ROLES.has(node.role));
  const group = best(walk(root), label, (node) => GROUP_ROLES.has(node.role) && [...walk(node)].some((child) => child.role === 'radio'));
  if (group !== undefined && (field === undefined || group.score > field.score)) return group.node;
  return field?.node;
}

function candidates(root: UiNode, label: string): string[] {
  return [...walk(root)]
    .filter((node) => FIELD_ROLES.has(node.role))
    .map((node) => ({ node, score: textScore(label, node.name) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 5)
    .map(({ node }) => `[${node.id}] ${node.role} ${JSON.stringify(node.name)}`);
}

class FieldFiller {
  constructor(
    private readonly context: ToolContext,
    private readonly pid: number,
  ) {}

  private run(request: Record<string, unknown>): Promise<UiActionResult> {
    return this.context.engine.run(this.pid, request, this.context.signal);
  }

  private outcome(node: UiNode, result: UiActionResult, done: string, keepAfter = true): Omit<FieldResult, 'label'> {
    if (result.success) {
      const after = keepAfter && result.nodeAfter !== null ? { nodeAfter: result.nodeAfter } : {};
      return { success: true, id: node.id, role: node.role, message: done, ...after };
    }
    return {
      success: false,
      id: node.id,
      role: node.role,
      message: `${result.error?.code ?? 'ACTION_FAILED'}: ${result.error?.message ?? 'the action failed'}`,
    };
  }

  async fill(node: UiNode, value: string | number | boolean): Promise<Omit<FieldResult, 'label'>> {
    switch (node.role) {
      case 'checkbox':
      case 'switch':
      case 'togglebutton':
        return this.toggle(node, value);
      case 'radio':
        // The label named an option itself: true selects it.
        return wantsChecked(value) === false
          ? { success: false, id: node.id, role: node.role, message: 'a radio button cannot be unselected; choose another option' }
          : this.choose(node, node);
      case 'combobox':
        return this.select(node, String(value));
      case 'textfield':
      case 'textarea':
      case 'slider':
      case 'spinbutton':
        return this.text(node, value);
      default: {
        const option = best(walk(node), String(value), (child) => child.role === 'radio');
        if (option === undefined)
          return {
            success: false,
            id: node.id,
            role: node.role,
            message: `no option matching ${JSON.stringify(String(value))} in ${JSON.stringify(node.name)}`,
          };
        return this.choose(node, option.node);
      }
    }
  }

  private async toggle(node: UiNode, value: string | number | boolean): Promise<Omit<FieldResult, 'label'>> {
    const wanted = wantsChecked(value);
    if (wanted === undefined) return { success: false, id: node.id, role: node.role, message: `${JSON.stringify(String(value))} is not true or false` };
    // Clicking a checkbox flips it, so click only when it is not already as wanted.
    if ((node.states.checked ?? false) === wanted) {
      return { success: true, id: node.id, role: node.role, message: `already ${wanted ? 'checked' : 'unchecked'}`, nodeAfter: shallow(node) };
    }
    const result = await this.run({ action: 'click', id: node.id });
    if (result.success && result.nodeAfter?.states.checked !== undefined && result.nodeAfter.states.checked !== wanted) {
      return { success: false, id: node.id, role: node.role, message: `clicked, but it is still ${wanted ? 'unchecked' : 'checked'}` };
    }
    return this.outcome(node, result, wanted ? 'checked' : 'unchecked');
  }

  private async choose(field: UiNode, option: UiNode): Promise<Omit<FieldResult, 'label'>> {
    if (option.states.checked === true || option.states.selected === true) {
      return { success: true, id: field.id, role: field.role, message: `${JSON.stringify(option.name)} was already selected`, nodeAfter: shallow(option) };
    }
    return this.outcome(field, await this.run({ action: 'click', id: option.id }), `selected ${JSON.stringify(option.name)}`);
  }

  private async text(node: UiNode, value: string | number | boolean): Promise<Omit<FieldResult, 'label'>> {
    const text = String(value);
    const set = await this.run({ action: 'set_value', id: node.id, value: typeof value === 'number' ? value : text });
    if (set.success || set.error?.code !== 'NOT_SETTABLE' || (node.role !== 'textfield' && node.role !== 'textarea')) {
      return this.outcome(node, set, `set to ${JSON.stringify(node.states.secret ? '•••' : text)}`);
    }
    // No settable value: select what is there and type over it, as a person would.
    const select = await this.run({ action: 'key', key: 'a', modifiers: ['cmd'], id: node.id });
    if (!select.success) return this.outcome(node, select, '');
    const typed = text === '' ? await this.run({ action: 'key', key: 'backspace', id: node.id }) : await this.run({ action: 'type', id: node.id, text });
    return this.outcome(node, typed, `typed ${JSON.stringify(node.states.secret ? '•••' : text)}`);
  }

  private async select(node: UiNode, value: string): Promise<Omit<FieldResult, 'label'>> {
    const set = await this.run({ action: 'set_value', id: node.id, value });
    if (set.success) return this.outcome(node, set, `set to ${JSON.stringify(value)}`);
    // Open it, then click the option: options often appear only once the list is open.
    const opened = await this.run({ action: 'click', id: node.id });
    if (!opened.success) return this.outcome(node, opened, '');
    const { root } = await this.context.engine.observe(this.pid, { signal: this.context.signal, fresh: true });
    const inside = [...walk(root)].find((each) => each.id === node.id);
    const option =
      (inside === undefined ? undefined : best(walk(inside), value, (each) => each !== inside && OPTION_ROLES.has(each.role))) ??
      best(walk(root), value, (each) => OPTION_ROLES.has(each.role) && each.states.visible !== false);
    if (option === undefined)
      return { success: false, id: node.id, role: node.role, message: `opened it, but found no option matching ${JSON.stringify(value)}` };
    // The option sits in a popup that closes on the click, so the combobox is what stays to check.
    return this.outcome(node, await this.run({ action: 'click', id: option.node.id }), `selected ${JSON.stringify(option.node.name)}`, false);
  }
}

/**
 * A risky control a label finds only after earlier fields changed the form. The safety gate
 * judged the fill against the form as it was, when the label found `judgedId`; a risky control
 * that shows up later was never put to the user, so it is not filled.
 */
function unjudgedRisk(label: string, node: UiNode, judgedId: string | undefined): string | undefined {
  if (riskyName(label) || node.id === judgedId) return undefined;
  return riskyText(node);
}

export const fillFormTool = defineTool({
  name: 'ui_fill_form',
  title: 'Fill a form',
  describe: (args) => {
    const fields: unknown[] = Array.isArray(args['fields']) ? args['fields'] : [];
    const labels = fields.map((field) => (typeof field === 'object' && field !== null ? argText((field as { label?: unknown }).label) : undefined));
    return { verb: 'fill', targets: labels.filter((label) => label !== undefined), key: argumentLine(args) };
  },
  description:
    'Fills several form fields by their labels: text fields and sliders (set the value, else type), checkboxes and switches (true/false; clicked only if different), radio buttons and selects or comboboxes (the option text). Reports each field; a label not found comes back with the closest fields.',
  schema,
  effects: 'act',
  reports: 'fields',
  safety: {
    target: 'app',
    typedText: (args) => args.fields.map(({ label, value }) => ({ label, text: String(value) })),
    plan: (args) => ({ verb: 'fill', target: args.fields.map(({ label }) => label).join(', ') }),
    risk: (args, _tree, locate) => {
      for (const { label } of args.fields) {
        const node = locate(label);
        const text = riskyName(label) ? label : node === undefined ? undefined : riskyText(node);
        if (text !== undefined) return { code: 'fills', values: { name: JSON.stringify(text) } };
      }
      return undefined;
    },
  },
  async handler(args, context) {
    const { pid } = await resolveApp(context, args);
    const filler = new FieldFiller(context, pid);
    const results: FieldResult[] = [];
    let judged: Map<string, string | undefined> | undefined;
    for (const { label, value } of args.fields) {
      context.signal.throwIfAborted();
      // A fresh tree per field: filling one field can change, show or hide the next.
      const { root } = await context.engine.observe(pid, { signal: context.signal, fresh: true });
      judged ??= new Map(args.fields.map((field) => [field.label, locateField(root, field.label)?.id]));
      const node = locateField(root, label);
      let result: FieldResult;
      if (node !== undefined && unjudgedRisk(label, node, judged.get(label)) !== undefined) {
        result = {
          label,
          success: false,
          id: node.id,
          role: node.role,
          message: `not filled: the label now finds ${JSON.stringify(riskyText(node))}, a control that was not there when this fill was checked; call ui_fill_form again for it`,
        };
      } else if (node === undefined) {
        const near = candidates(root, label);
        result = {
          label,
          success: false,
          message: `no field labelled ${JSON.stringify(label)}${near.length > 0 ? `; closest: ${near.join(', ')}` : ''}`,
          candidates: near,
        };
      } else {
        try {
          result = { label, ...(await filler.fill(node, value)) };
        } catch (error) {
          if (context.signal.aborted) throw error;
          const serialized = serializeError(error);
          result = { label, success: false, id: node.id, role: node.role, message: `${serialized.code}: ${serialized.message}` };
        }
      }
      context.log(`${label}: ${result.message}`);
      results.push(result);
    }
    const failed = results.filter((result) => !result.success).length;
    const lines = results.map(
      (result) => `${result.success ? 'ok' : 'FAILED'} ${JSON.stringify(result.label)}${result.id === undefined ? '' : ` [${result.id}]`}: ${result.message}`,
    );
    return {
      success: failed === 0,
      message: `${failed === 0 ? 'all fields filled' : `${failed} of ${results.length} fields failed`}\n${lines.join('\n')}`,
      data: { fields: results },
    };
  },
});
