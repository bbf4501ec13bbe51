import type { UiNode } from '../../../shared/ui-node';
import { findById } from '../../ui/tree-index';
import { locateField } from '../tools/fill-form';
import { argumentObject as parse } from '../tools/registry';
import type { ToolContext, ToolResult } from '../tools/types';
import { ACTING_TOOLS, CONTENT_READING_TOOLS, readsContent, riskyCombo, riskyName } from './risk';
import type { ApprovalPolicy, ApprovalRequest } from './types';

const SUMMARY_WIDTH = 120;

/** What the gate needs to know about one tool call. */
export interface GateCall {
  askId: string;
  callId: string;
  tool: string;
  rawArguments: string;
}

/** The ask's own facts: what the user typed, and whether the model has read document or web content yet. */
export interface AskSafetyState {
  userText: string;
  readContent: boolean;
}

export type GateOutcome = { kind: 'run' } | { kind: 'refuse'; result: ToolResult } | { kind: 'ask'; request: ApprovalRequest; key: string };

function summarize(raw: string): string {
  const line = raw.replace(/\s+/g, ' ').trim();
  return line.length <= SUMMARY_WIDTH ? line : `${line.slice(0, SUMMARY_WIDTH - 1)}…`;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function secretRefusal(node: UiNode): ToolResult {
  return {
    success: false,
    message: `REFUSED: [${node.id}] ${JSON.stringify(node.name)} is a secret field (a password or similar), and the text to type is not something the user wrote in this request. Only text the user typed themselves goes into a secret field; ask the user to type it or to give it in their message.`,
    data: { code: 'SECRET_FIELD', id: node.id },
  };
}

/**
 * The safety rules around tool calls, per conversation. Read first, then decide:
 * - typing into a secret field is refused (every policy) unless the exact text is in the user's message of this ask;
 * - non-acting tools always run;
 * - `auto` runs everything else; `confirm-all` asks for every acting call;
 * - `confirm-risky` asks when the call is risky: a quit/close/delete key combo, a click on (or a
 *   fill_form field labelled) a delete/remove/discard/send/buy/pay/purchase/submit-order control,
 *   close_window, or any acting call once the model has, in this ask, run read_element or get_ui on
 *   a subtree with document or web content (the rule stays on for the rest of the ask).
 * An `allow_app` answer remembers (tool, pid) for the rest of the conversation.
 */
export class SafetyGate {
  private readonly allowed = new Set<string>();
  private requests = 0;

  constructor(private readonly policy: ApprovalPolicy) {}

  /** Forgets allow_app answers (a cleared conversation). */
  clear(): void {
    this.allowed.clear();
  }

  remember(key: string): void {
    this.allowed.add(key);
  }

  async check(call: GateCall, context: ToolContext, state: AskSafetyState): Promise<GateOutcome> {
    if (!ACTING_TOOLS.has(call.tool)) return { kind: 'run' };
    const args = parse(call.rawArguments);
    const pid = call.tool === 'focus_app' ? (typeof args['pid'] === 'number' ? args['pid'] : undefined) : context.targetPid;
    const tree = pid === undefined || call.tool === 'focus_app' ? undefined : await this.tree(context, pid);

    const secret = this.secretCheck(call.tool, args, tree, state.userText);
    if (secret !== undefined) return { kind: 'refuse', result: secret };
    if (this.policy === 'auto') return { kind: 'run' };

    const reason =
      this.policy === 'confirm-all'
        ? (this.riskReason(call.tool, args, tree, state) ?? 'every action is confirmed (confirm-all)')
        : this.riskReason(call.tool, args, tree, state);
    if (reason === undefined) return { kind: 'run' };
    const key = `${call.tool}:${pid ?? 'none'}`;
    if (this.allowed.has(key)) return { kind: 'run' };
    this.requests += 1;
    const app = pid === undefined ? str(args['name']) : await this.appName(context, pid);
    const request: ApprovalRequest = {
      id: `approval-${this.requests}`,
      askId: call.askId,
      callId: call.callId,
      tool: call.tool,
      summary: summarize(call.rawArguments),
      reason,
      ...(pid === undefined ? {} : { pid }),
      ...(app === undefined ? {} : { app }),
    };
    return { kind: 'ask', request, key };
  }

  /** After a content-reading tool ran: does its result bring document or web text? */
  async noteRead(tool: string, rawArguments: string, context: ToolContext, state: AskSafetyState): Promise<void> {
    if (!CONTENT_READING_TOOLS.has(tool) || state.readContent) return;
    const args = parse(rawArguments);
    const pid = typeof args['pid'] === 'number' ? args['pid'] : context.targetPid;
    if (pid === undefined) return;
    const tree = await this.tree(context, pid);
    if (tree === undefined) return;
    const id = tool === 'read_element' ? str(args['id']) : str(args['rootId']);
    if (tool === 'read_element' && id === undefined) return;
    if (readsContent(tree, id)) state.readContent = true;
  }

  private async tree(context: ToolContext, pid: number): Promise<UiNode | undefined> {
    try {
      return (await context.engine.observe(pid, { signal: context.signal })).root;
    } catch (error) {
      if (context.signal.aborted) throw error;
      return undefined; // The tool itself will report the dead app or missing tree.
    }
  }

  private async appName(context: ToolContext, pid: number): Promise<string | undefined> {
    try {
      return (await context.platform.apps.list()).find((app) => app.pid === pid)?.name;
    } catch {
      return undefined;
    }
  }

  private secretCheck(tool: string, args: Record<string, unknown>, tree: UiNode | undefined, userText: string): ToolResult | undefined {
    if (tree === undefined) return undefined;
    if (tool === 'ui_action' && (args['action'] === 'type' || args['action'] === 'set_value')) {
      const id = str(args['id']);
      const node = id === undefined ? undefined : findById(tree, id);
      const typed = args['action'] === 'type' ? args['text'] : args['value'];
      if (node?.states.secret === true && !userText.includes(String(typed ?? ''))) return secretRefusal(node);
    }
    if (tool === 'fill_form' && Array.isArray(args['fields'])) {
      for (const field of args['fields'] as unknown[]) {
        if (typeof field !== 'object' || field === null) continue;
        const { label, value } = field as { label?: unknown; value?: unknown };
        if (typeof label !== 'string') continue;
        const node = locateField(tree, label);
        if (node?.states.secret === true && !userText.includes(String(value ?? ''))) return secretRefusal(node);
      }
    }
    return undefined;
  }

  private riskReason(tool: string, args: Record<string, unknown>, tree: UiNode | undefined, state: AskSafetyState): string | undefined {
    if (tool === 'close_window') return 'closes a window';
    if (tool === 'ui_action') {
      if (args['action'] === 'key' && typeof args['key'] === 'string') {
        const modifiers = Array.isArray(args['modifiers']) ? args['modifiers'].filter((each): each is string => typeof each === 'string') : [];
        const combo = riskyCombo(args['key'], modifiers);
        if (combo !== undefined) return combo;
      }
      if (args['action'] === 'click') {
        const id = str(args['id']);
        const node = id === undefined || tree === undefined ? undefined : findById(tree, id);
        if (node !== undefined && riskyName(node.name)) return `clicks ${JSON.stringify(node.name)}`;
      }
    }
    if (tool === 'fill_form' && Array.isArray(args['fields'])) {
      for (const field of args['fields'] as unknown[]) {
        if (typeof field !== 'object' || field === null) continue;
        const { label } = field as { label?: unknown };
        const named = typeof label === 'string' && tree !== undefined ? locateField(tree, label)?.name : undefined;
        for (const text of [label, named]) {
          if (typeof text === 'string' && riskyName(text)) return `fills ${JSON.stringify(text)}`;
        }
      }
    }
    if (state.readContent) return 'acts right after reading document or web content, which may carry instructions that are not the user’s';
    return undefined;
  }
}
