/**
 * Standing permissions for tools of the user's MCP servers: one tool or a whole server, in one
 * app or everywhere. Under `confirm-risky` every external tool that is not read-only asks; an
 * allowance answers for the user until it is revoked in Settings. Built-in UI tools never get
 * one: their "for this app" lasts a conversation, because their risks depend on what is on screen.
 */
import { z } from 'zod';

export const MAX_TOOL_ALLOWANCES = 200;

const name = z.string().trim().min(1).max(200);

const TOOL_ALLOWANCE_SCHEMA = z.strictObject({
  /** The server's name in the user's `mcpServers`. */
  server: name,
  /** The tool's own name on that server; absent: every tool of the server. */
  tool: name.optional(),
  /** The app's name as the approval named it; absent: in every app. */
  app: name.optional(),
});

export type ToolAllowance = z.infer<typeof TOOL_ALLOWANCE_SCHEMA>;

export const TOOL_ALLOWANCES_SCHEMA = z.array(TOOL_ALLOWANCE_SCHEMA).max(MAX_TOOL_ALLOWANCES);

/** The external tool a call is to, and the app it is made from. */
export interface ExternalCall {
  server: string;
  tool: string;
  app?: string;
}

export function allows(allowances: readonly ToolAllowance[], call: ExternalCall): boolean {
  return allowances.some(
    (rule) => rule.server === call.server && (rule.tool === undefined || rule.tool === call.tool) && (rule.app === undefined || rule.app === call.app),
  );
}

/**
 * The allowance an answer (an ApprovalDecision) grants for an external call: `allow_app` and `allow_always` for the
 * tool, the `allow_server_*` answers for its server. Undefined for a one-time answer, a denial,
 * or "for this app" when the app is not known (that answer then lasts the conversation only).
 */
export function allowanceFor(decision: string, call: ExternalCall): ToolAllowance | undefined {
  const tool = decision === 'allow_app' || decision === 'allow_always' ? { tool: call.tool } : {};
  if (decision === 'allow_always' || decision === 'allow_server_always') return { server: call.server, ...tool };
  if ((decision === 'allow_app' || decision === 'allow_server_app') && call.app !== undefined) return { server: call.server, ...tool, app: call.app };
  return undefined;
}

function sameAllowance(a: ToolAllowance, b: ToolAllowance): boolean {
  return a.server === b.server && a.tool === b.tool && a.app === b.app;
}

/** The list with one more allowance: a repeat is not stored twice, and the oldest go past the cap. */
export function withAllowance(allowances: readonly ToolAllowance[], rule: ToolAllowance): ToolAllowance[] {
  if (allowances.some((each) => sameAllowance(each, rule))) return [...allowances];
  return [...allowances, rule].slice(-MAX_TOOL_ALLOWANCES);
}
