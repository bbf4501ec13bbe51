import type { UiNode } from '../../../shared/ui-node';
import { locateField } from '../../tools/fill-form';
import { findById } from '../../ui/tree-index';
import { notFoundError } from '../../actions/locate';
import { serializeError, type ErrorCode } from '../../../shared/errors';
import { readsContent } from '../../tools/risk';
import { isReadOnly, type Tool, type ToolContext, type ToolResult } from '../../tools/types';
import { maskSecrets, typedTargets } from './secrets';
import { resolveCall } from './resolve';
import { argumentObject } from '../tool-registry/registry';
import type { ApprovalPolicy, ApprovalRequest } from './types';
import type { InputRequest } from '../../actions/engine';
import type { Platform } from '../../platform/types';
import { inputPlan } from './input-plan';
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

/**
 * `key` names (tool, pid) for a conversation-long "for this app"; `external`, the MCP tool and
 * app a standing allowance would cover. `runArguments`: run the tool with these, the call as the
 * gate resolved and judged it (see ResolvedCall); absent, with the model's own. `shown`: the
 * arguments as they may be printed, with text bound for a secret field masked; absent when
 * nothing needs masking.
 */
export type GateOutcome =
  | ({ kind: 'run' } & Resolved)
  | { kind: 'refuse'; result: ToolResult; shown?: string | undefined }
  | ({ kind: 'ask'; request: ApprovalRequest; key: string; external?: ExternalCall } & Resolved);

/** What a call that may run carries from its resolution; `pid` is set where the call named its app (the target fields). */
interface Resolved {
  runArguments?: string;
  shown?: string | undefined;
  pid?: number | undefined;
}

function summarize(raw: string): string {
  const line = raw.replace(/\s+/g, ' ').trim();
  return line.length <= SUMMARY_WIDTH ? line : `${line.slice(0, SUMMARY_WIDTH - 1)}…`;
}

export function secretRefusal(node: UiNode): ToolResult {
  return {
    success: false,
    message: `REFUSED: [${node.id}] ${JSON.stringify(node.name)} is a secret field (a password or similar), and the text to type is not something the user wrote in this request. Only text the user typed themselves goes into a secret field; ask the user to type it or to give it in their message.`,
    data: { code: 'SECRET_FIELD' satisfies ErrorCode, id: node.id },
  };
}

/** A call naming a node the gate cannot find: refused as the engine would refuse it, before anything runs. */
function unknownNodes(definition: Tool, args: Record<string, unknown>, tree: UiNode | undefined, pid: number | undefined): ToolResult | undefined {
  const ids = (definition.safety?.nodes?.(args as never) ?? []).filter((id): id is string => id !== undefined);
  if (ids.length === 0) return undefined;
  if (tree === undefined || pid === undefined) {
    return {
      success: false,
      message: `ACTION_FAILED: the app's tree could not be read to check this call, so nothing was done; read the app again (ui_tree), then retry`,
      data: { code: 'ACTION_FAILED' satisfies ErrorCode },
    };
  }
  for (const id of ids) {
    if (findById(tree, id) !== undefined) continue;
    const error = serializeError(notFoundError(tree, id, undefined, pid));
    return { success: false, message: `${error.code}: ${error.message}`, data: { error } };
  }
  return undefined;
}

/**
 * The safety rules around tool calls, per conversation. Resolve first (resolveCall: the tool's
 * schema, its canonical spelling, the app from pid/app/target, that app's tree), judge that, and
 * hand it back as the arguments to run, so the call judged is the call run:
 * - a call that cannot be resolved, or names a node not in the tree, is refused before anything acts;
 * - text typed or set into a secret field is refused (every policy) unless it is in the user's message of this ask;
 * - tools that declare `effects: 'read'` always run (under `confirm-all`, but for an MCP server's, whose claim is its own);
 *   every other tool acts, a plugin's tool that declares nothing too;
 * - `auto` runs everything else; `confirm-all` asks for every acting call;
 * - `confirm-risky` asks when the call is risky by the tool's own `safety.risk` (a quit/close/delete key
 *   combo as the engine parses it, a click, key, drop or fill aimed at a control whose text is risky
 *   (tools/risk.ts), closing a window), when an acting tool declares no safety facts at all (a plugin's, which the gate cannot judge),
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
    // An MCP server's tool is read-only on its server's word alone (readOnlyHint), which the MCP
    // spec says to treat as untrusted: a user who confirms everything is asked about it too.
    if (isReadOnly(definition) && !(this.policy === 'confirm-all' && definition.external !== undefined)) return { kind: 'run' };
    const resolution = await resolveCall(definition, call.rawArguments, context);
    // Invalid arguments: the registry refuses them with the schema's own words, and nothing runs.
    if (resolution.kind === 'invalid') return { kind: 'run' };
    if (resolution.kind === 'failed') return { kind: 'refuse', result: resolution.result };
    const resolved = resolution.call;
    const { args, pid, tree } = resolved;
    const run = resolved.runArguments === undefined ? {} : { runArguments: resolved.runArguments, pid };
    const unknown = unknownNodes(definition, args, tree, pid);
    if (unknown !== undefined) return { kind: 'refuse', result: unknown };
    const shown = maskSecrets(definition, args, tree, call.rawArguments);
    const secret = this.secretCheck(definition, args, tree, state.userText);
    if (secret !== undefined) return { kind: 'refuse', result: secret, shown };
    if (this.policy === 'auto') return { kind: 'run', ...run, shown };
    const risk = this.riskReason(definition, args, tree, state, context);
    const why: RiskReason | undefined = this.policy === 'confirm-all' ? (risk ?? { code: 'confirmAll' }) : risk;
    if (why === undefined) return { kind: 'run', ...run, shown };
    const key = `${call.tool}:${pid ?? 'none'}`;
    if (this.allowed.has(key)) return { kind: 'run', ...run, shown };
    const app = resolved.app ?? (pid === undefined ? undefined : await this.appName(context, pid));
    const external = definition.external === undefined ? undefined : { ...definition.external, ...(app === undefined ? {} : { app }) };
    if (external !== undefined && allows([...this.allowances(), ...this.granted], external)) return { kind: 'run', ...run, shown };
    this.requests += 1;
    const request: ApprovalRequest = {
      id: `approval-${this.requests}`,
      askId: call.askId,
      callId: call.callId,
      tool: call.tool,
      summary: summarize(shown ?? call.rawArguments),
      reason: riskText(why, ENGLISH),
      why,
      plan: definition.safety?.plan?.(args as never, tree) ?? { verb: 'run', target: definition.title ?? definition.name },
      ...(pid === undefined ? {} : { pid }),
      ...(app === undefined ? {} : { app }),
      ...(definition.external === undefined ? {} : { external: definition.external }),
    };
    return { kind: 'ask', request, key, ...run, shown, ...(external === undefined ? {} : { external }) };
  }

  /**
   * A synthetic input step inside an approved call, for a user who asked never to have their
   * pointer or keyboard taken without asking (keepDevices): always asked, whatever the policy,
   * unless the user allowed input for this app earlier in the conversation. The request is
   * filed under the call it happens in and judges only that input.
   */
  async checkInput(
    call: { askId: string; callId: string; tool: string },
    input: InputRequest,
    platform: Pick<Platform, 'apps'>,
  ): Promise<Extract<GateOutcome, { kind: 'run' | 'ask' }>> {
    const key = `input:${input.pid}`;
    if (this.allowed.has(key)) return { kind: 'run' };
    const app = await this.appName({ platform }, input.pid);
    // Opening a menu is an accessible click, but its popup grabs the keyboard until it closes: say that, not "no way without them".
    const why: RiskReason = input.via === 'open-menu' ? { code: 'menuHoldsKeyboard' } : { code: 'takesDevices', values: { via: input.via } };
    this.requests += 1;
    const { plan, summary } = inputPlan(input);
    const request: ApprovalRequest = {
      id: `approval-${this.requests}`,
      askId: call.askId,
      callId: call.callId,
      tool: call.tool,
      summary: summarize(summary),
      reason: riskText(why, ENGLISH),
      why,
      plan,
      pid: input.pid,
      ...(app === undefined ? {} : { app }),
    };
    return { kind: 'ask', request, key };
  }

  /** After a reading tool ran: did its result bring document or web text? Read in the app the call read. */
  async noteRead(definition: Tool, rawArguments: string, context: ToolContext, state: AskSafetyState): Promise<void> {
    const readRoot = definition.safety?.readRoot;
    if (readRoot === undefined || state.readContent) return;
    // Most reads say from their arguments alone that they read no node (docs search): no tree needed.
    if (readRoot(argumentObject(rawArguments) as never) === null) return;
    const resolution = await resolveCall(definition, rawArguments, context);
    if (resolution.kind !== 'resolved') return;
    const { args, tree } = resolution.call;
    const id = readRoot(args as never);
    if (id === null) return;
    if (tree !== undefined && readsContent(tree, id?.trim())) state.readContent = true;
  }

  private async appName(context: { platform: Pick<Platform, 'apps'> }, pid: number): Promise<string | undefined> {
    try {
      return (await context.platform.apps.list()).find((app) => app.pid === pid)?.name;
    } catch {
      return undefined;
    }
  }

  private secretCheck(definition: Tool, args: Record<string, unknown>, tree: UiNode | undefined, userText: string): ToolResult | undefined {
    for (const { node, text } of typedTargets(definition, args, tree)) {
      if (node?.states.secret === true && !userText.includes(text)) return secretRefusal(node);
    }
    return undefined;
  }

  private riskReason(
    definition: Tool,
    args: Record<string, unknown>,
    tree: UiNode | undefined,
    state: AskSafetyState,
    context: ToolContext,
  ): RiskReason | undefined {
    const safety = definition.safety;
    // A tool that acts and says nothing of its risks (a plugin's) cannot be judged, so it is asked about.
    if (safety === undefined) return { code: 'undeclared', values: { tool: definition.name } };
    const locate = (label: string): UiNode | undefined => (tree === undefined ? undefined : locateField(tree, label));
    const risk = safety.risk?.(args as never, tree, locate, context.platform.name);
    if (risk !== undefined) return risk;
    if (state.readContent) return { code: 'afterReading' };
    return undefined;
  }
}
