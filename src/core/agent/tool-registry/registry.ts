import { z } from 'zod';
import { DeskpilotError } from '../../../shared/errors';
import { builtinTools } from '../../tools/builtin';
import { executeTool, parseArguments, unknownToolResult } from '../../tools/execute';
import type { AnyTool, ToolContext, ToolResult } from '../../tools/types';
import type { Language } from '../../../shared/i18n/i18n';
import type { ProviderTool } from '../provider/types';
import { toolText, translateParameters } from '../text/tool-text';

// The gate and the end-state check read arguments as the executor does.
export { parseArguments };

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

type JsonSchema = Record<string, unknown>;

/**
 * The JSON schema a model sees, derived from the zod schema that validates the call, so the
 * two cannot drift. `io: 'input'` keeps defaulted fields optional, as the model may omit them.
 */
export function toParametersSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  if (rest.type !== 'object') {
    // Function calling needs an object at the top; a union there is rejected by most providers.
    throw new DeskpilotError('INTERNAL', 'a tool schema must be an object at the top level');
  }
  return rest;
}

/** The arguments as an object to read fields from, before or after the call; anything else is {}. */
export function argumentObject(raw: string): Record<string, unknown> {
  const { value } = parseArguments(raw);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

interface Registered {
  tool: AnyTool;
  parameters: JsonSchema;
  /** The parameters described in another language, made once per language (every model turn asks for them). */
  translated: Partial<Record<Language, JsonSchema>>;
}

/**
 * The agent's adapter over the tool definitions (src/core/tools): every tool the agent can
 * call, the built-ins plus whatever apps and plugins register, as function tools for the model.
 * `call` never throws for a tool's failure; the model gets `{success: false}` and can try
 * again. The one exception is cancellation: an aborted ask rethrows, because stopping is
 * the user's decision, not something for the model to work around.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Registered>();
  /** The names setExternalTools registered. */
  private readonly external = new Set<string>();

  constructor(tools: readonly AnyTool[] = []) {
    for (const tool of tools) this.registerTool(tool);
  }

  registerTool(tool: AnyTool): void {
    if (!TOOL_NAME.test(tool.name)) {
      throw new DeskpilotError('VALIDATION', `tool name '${tool.name}' must be 1–64 letters, digits, '_' or '-'`);
    }
    if (this.tools.has(tool.name)) {
      throw new DeskpilotError('VALIDATION', `a tool named '${tool.name}' is already registered; pick another name`);
    }
    // Derived once here, so a schema that cannot be a function schema fails at registration, not mid-ask.
    this.tools.set(tool.name, { tool, parameters: tool.parameters ?? toParametersSchema(tool.schema), translated: {} });
  }

  /**
   * The tools from the user's MCP servers, replacing the last set: a server's list changes, and
   * one that is down is left out until it is back. A name a built-in holds is skipped.
   */
  setExternalTools(tools: readonly AnyTool[]): void {
    for (const name of this.external) this.tools.delete(name);
    this.external.clear();
    for (const tool of tools) {
      if (this.tools.has(tool.name)) continue;
      this.registerTool(tool);
      this.external.add(tool.name);
    }
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** The definition behind a name: its effects, reports and safety facts are what the agent's checks read. */
  tool(name: string): AnyTool | undefined {
    return this.tools.get(name)?.tool;
  }

  /**
   * OpenAI-style function tools, for the provider request, described in `language` where a
   * translation exists (a registered plugin's tool keeps its own words).
   */
  definitions(language: Language = 'en'): ProviderTool[] {
    return [...this.tools.values()].map(({ tool, parameters, translated }) => {
      const text = toolText(language, tool.name);
      if (text?.params !== undefined) translated[language] ??= translateParameters(parameters, text.params);
      return {
        type: 'function',
        function: { name: tool.name, description: text?.description ?? tool.description, parameters: translated[language] ?? parameters },
      };
    });
  }

  /** The tools' prompt snippets, one line each, for the system prompt. */
  promptSnippets(language: Language = 'en'): string {
    return [...this.tools.values()]
      .flatMap(({ tool }) => {
        const snippet = tool.promptSnippet === undefined ? undefined : (toolText(language, tool.name)?.snippet ?? tool.promptSnippet);
        return snippet === undefined ? [] : [`- ${tool.name}: ${snippet}`];
      })
      .join('\n');
  }

  /** Runs a call through the one executor (tools/execute.ts), so the agent words every failure as the MCP server does. */
  async call(name: string, rawArguments: string, context: ToolContext): Promise<ToolResult> {
    const registered = this.tools.get(name);
    if (registered === undefined) return unknownToolResult(name, this.names());
    return executeTool(registered.tool, { json: rawArguments }, context);
  }
}

/** A registry with the built-ins; apps and plugins add theirs with registerTool. */
export function createToolRegistry(): ToolRegistry {
  return new ToolRegistry(builtinTools());
}
