import type { UiNode } from '../../../shared/ui-node';
import { findById } from '../../ui/tree-index';
import { locateField } from '../../tools/fill-form';
import { readsContent } from '../../tools/risk';
import { isReadOnly, type Tool, type ToolContext, type ToolResult } from '../../tools/types';
import { argumentObject as parse } from '../tools/registry';
import type { ApprovalPolicy, ApprovalRequest } from './types';
import { createI18n } from '../../../shared/i18n/i18n';
import { riskText, type RiskReason } from '../../../shared/risk';
import type { ApprovalDecision } from '../../../shared/settings';
import { allowanceFor, allows, type ExternalCall, type ToolAllowance } from '../../../shared/tool-allowances';

/** The reason in English, for logs and the model; programs say `why` in their user's language. */
const ENGLISH = createI18n('en');

const SUMMARY_WIDTH = 120;

/** What the gate needs to know about one tool call. */
export interface GateCall {
  askId: string;
  callId: string;
  tool: string;
  /** The tool's definition: what it declares is all the gate knows about it. */
  definition: Tool;
  rawArguments: string;
}

/** The ask's own facts: what the user typed, and whether the model has read document or web content yet. */
export interface AskSafetyState {
  userText: string;
  readContent: boolean;
}

/** `key` names (tool, pid) for a conversation-long "for this app"; `external`, the MCP tool and app a standing allowance would cover. */
export type GateOutcome =
  { kind: 'run' } | { kind: 'refuse'; result: ToolResult } | { kind: 'ask'; request: ApprovalRequest; key: string; external?: ExternalCall };

function summarize(raw: string): string {
  const line = raw.replace(/\s+/g, ' ').trim();
  return line.length <= SUMMARY_WIDTH ? line : `${line.slice(0, SUMMARY_WIDTH - 1)}…`;
}

export function secretRefusal(node: UiNode): ToolResult {
  return {
    success: false,
    message: `REFUSED: [${node.id}] ${JSON.stringify(node.name)} is a secret field (a password or similar), and the text to type is not something the user wrote in this request. Only text the user typed themselves goes into a secret field; ask the user to type it or to give it in their message.`,
    data: { code: 'SECRET_FIELD', id: node.id },
  };
}

/**
 * The safety rules around tool calls, per conversation. Read first, then decide:
 * - text typed or set into a secret field is refused (every policy) unless it is in the user's message of this ask;
 * - tools that declare `effects: 'read'` always run; every other tool acts, a plugin's tool that declares nothing too;
 * - `auto` runs everything else; `confirm-all` asks for every acting call;
 * - `confirm-risky` asks when the call is risky by the tool's own `safety.risk` (a quit/close/delete key
 *   combo, a click on or a fill of a delete/remove/discard/send/buy/pay/submit-order control, closing a
 *   window), when an acting tool declares no safety facts at all (a plugin's, which the gate cannot judge),
 *   or for any acting call once the model has, in this ask, read a subtree with document or web content
 *   (the rule stays on for the rest of the ask).
 * An `allow_app` answer remembers (tool, pid) for the rest of the conversation. A tool of one
 * of the user's MCP servers also runs without asking where a standing allowance covers it (the
 * user's, from `allowances`, or one granted in this conversation, until the caller stores it).
 */
export class SafetyGate {
  private readonly allowed = new Set<string>();
  private granted: ToolAllowance[] = [];
  private requests = 0;

  constructor(
    private readonly policy: ApprovalPolicy,
    private readonly allowances: () => readonly ToolAllowance[] = () => [],
  ) {}

  /** Forgets this conversation's answers (a cleared conversation); stored allowances stay. */
  clear(): void {
    this.allowed.clear();
    this.granted = [];
  }

  /** Takes an answer that allows more than this call: see APPROVAL_DECISIONS. */
  grant(outcome: Extract<GateOutcome, { kind: 'ask' }>, decision: ApprovalDecision): void {
    if (decision === 'allow_once' || decision === 'deny') return;
    const rule = outcome.external === undefined ? undefined : allowanceFor(decision, outcome.external);
    if (rule !== undefined) this.granted.push(rule);
    else this.allowed.add(outcome.key);
  }

  async check(call: GateCall, context: ToolContext, state: AskSafetyState): Promise<GateOutcome> {
    const { definition } = call;
    if (isReadOnly(definition)) return { kind: 'run' };
    const args = parse(call.rawArguments);
    const other = definition.safety?.otherApp?.(args as never);
    const pid = other !== undefined ? other.pid : typeof args['pid'] === 'number' ? args['pid'] : context.targetPid;
    const tree = pid === undefined || other !== undefined ? undefined : await this.tree(context, pid);

    const secret = this.secretCheck(definition, args, tree, state.userText);
    if (secret !== undefined) return { kind: 'refuse', result: secret };
    if (this.policy === 'auto') return { kind: 'run' };

    const risk = this.riskReason(definition, args, tree, state);
    const why: RiskReason | undefined = this.policy === 'confirm-all' ? (risk ?? { code: 'confirmAll' }) : risk;
    if (why === undefined) return { kind: 'run' };
    const key = `${call.tool}:${pid ?? 'none'}`;
    if (this.allowed.has(key)) return { kind: 'run' };
    const app = pid === undefined ? other?.name : await this.appName(context, pid);
    const external = definition.external === undefined ? undefined : { ...definition.external, ...(app === undefined ? {} : { app }) };
    if (external !== undefined && allows([...this.allowances(), ...this.granted], external)) return { kind: 'run' };
    this.requests += 1;
    const request: ApprovalRequest = {
      id: `approval-${this.requests}`,
      askId: call.askId,
      callId: call.callId,
      tool: call.tool,
      summary: summarize(call.rawArguments),
      reason: riskText(why, ENGLISH),
      why,
      plan: definition.safety?.plan?.(args as never, tree) ?? { verb: 'run', target: definition.title ?? definition.name },
      ...(pid === undefined ? {} : { pid }),
      ...(app === undefined ? {} : { app }),
      ...(definition.external === undefined ? {} : { external: definition.external }),
    };
    return { kind: 'ask', request, key, ...(external === undefined ? {} : { external }) };
  }

  /** After a reading tool ran: did its result bring document or web text? */
  async noteRead(definition: Tool, rawArguments: string, context: ToolContext, state: AskSafetyState): Promise<void> {
    const readRoot = definition.safety?.readRoot;
    if (readRoot === undefined || state.readContent) return;
    const args = parse(rawArguments);
    const id = readRoot(args as never);
    if (id === null) return;
    const pid = typeof args['pid'] === 'number' ? args['pid'] : context.targetPid;
    if (pid === undefined) return;
    const tree = await this.tree(context, pid);
    if (tree !== undefined && readsContent(tree, id)) state.readContent = true;
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

  private secretCheck(definition: Tool, args: Record<string, unknown>, tree: UiNode | undefined, userText: string): ToolResult | undefined {
    if (tree === undefined) return undefined;
    for (const typed of definition.safety?.typedText?.(args as never) ?? []) {
      const node = typed.id !== undefined ? findById(tree, typed.id) : typed.label !== undefined ? locateField(tree, typed.label) : undefined;
      if (node?.states.secret === true && !userText.includes(typed.text)) return secretRefusal(node);
    }
    return undefined;
  }

  private riskReason(definition: Tool, args: Record<string, unknown>, tree: UiNode | undefined, state: AskSafetyState): RiskReason | undefined {
    const safety = definition.safety;
    // A tool that acts and says nothing of its risks (a plugin's) cannot be judged, so it is asked about.
    if (safety === undefined) return { code: 'undeclared', values: { tool: definition.name } };
    const risk = safety.risk?.(args as never, tree, (label) => (tree === undefined ? undefined : locateField(tree, label)));
    if (risk !== undefined) return risk;
    if (state.readContent) return { code: 'afterReading' };
    return undefined;
  }
}
