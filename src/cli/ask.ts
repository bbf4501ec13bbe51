import { clipLine } from '../shared/clip';
import type { AgentEvent } from '../shared/agent-events';
import { ValidationError } from '../shared/errors';
import { OpenAICompatibleProvider, PRESETS, isPresetName, visionFromEnv, type PresetName } from '../core/agent/provider';
import { createToolRegistry } from '../core/agent/tool-registry';
import { LANGUAGES, languageFromEnv, matchLanguage, type Language } from '../shared/i18n/i18n';
import { loadMcpConfigFile } from '../core/mcp-client/config';
import { describeMcpNotice } from '../core/mcp-client/server';
import { terminalDecider } from './approval';
import { terminalLine } from '../shared/terminal-text';
import type { CommandContext } from './context';
import { userPath } from './user-path';
import { recordingFor, saveWorkflow, withWorkflowTools } from './workflow-save';

/** Exit code after Ctrl-C, as shells report a SIGINT death. */
export const INTERRUPTED_EXIT = 130;

const SUMMARY_WIDTH = 80;

/**
 * The call in one short line, as its tool described it (`click kqxza`, `role="checkbox"
 * name="Enable"`, masked where it types a secret), or its raw arguments for an event without one.
 */
export function summarizeArguments(event: Extract<AgentEvent, { type: 'tool_call' }>): string {
  return clipLine(event.gist?.key ?? event.arguments, 60);
}

/** `ok (accessibility, changed)` for an action's result, by its shape; `ok: <first line>` or `failed: <first line>` otherwise. */
export function summarizeResult(event: Extract<AgentEvent, { type: 'tool_result' }>): string {
  const data = event.data as { method?: unknown; changed?: unknown } | undefined;
  if (event.success && typeof data?.method === 'string' && typeof data.changed === 'boolean') {
    return `ok (${data.method}, ${data.changed ? 'changed' : 'unchanged'})`;
  }
  const first = event.message.split('\n')[0] ?? '';
  const more = event.message.includes('\n') ? ` (+${event.message.split('\n').length - 1} lines)` : '';
  return `${event.success ? 'ok' : 'failed'}: ${clipLine(first, SUMMARY_WIDTH)}${more}`;
}

/** `--preset`, which wins over DESKPILOT_PROVIDER; the provider config reads the variable itself. */
function presetFlag(context: CommandContext): PresetName | undefined {
  const raw = context.values['preset'];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !isPresetName(raw)) {
    throw new ValidationError(`unknown provider preset '${String(raw)}'; presets: ${Object.keys(PRESETS).join(', ')}`);
  }
  return raw;
}

/** `--lang`: the answers' language, and the approval prompt's; a Portuguese of any country is Brazilian Portuguese. */
function langFlag(context: CommandContext): Language | undefined {
  const raw = context.values['lang'];
  if (raw === undefined || raw === '') return undefined;
  const language = typeof raw === 'string' ? matchLanguage(raw) : undefined;
  if (language === undefined) throw new ValidationError(`unknown language '${String(raw)}'; languages: ${LANGUAGES.join(', ')}`);
  return language;
}

/** Runs until SIGINT arrives; returns the function that removes the handler. */
function onInterrupt(context: CommandContext, handler: () => void): () => void {
  if (context.io.onInterrupt !== undefined) return context.io.onInterrupt(handler);
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

/**
 * `deskpilot ask "question"`: one ask of the Agent on this platform. The answer streams to
 * stdout; tool calls go to stderr, one line each. Exit 0 answered, 1 iteration limit,
 * 2 error (one typed line, printed by main), 130 interrupted.
 */
export async function ask(context: CommandContext, targetPid: () => Promise<number>): Promise<number> {
  const { io, platform, runtime } = context;
  const question = context.positionals.join(' ').trim();
  if (question === '') throw new ValidationError(`ask needs a question, e.g. deskpilot ask --app gedit "what is this document about?"`);
  const preset = presetFlag(context);
  const lang = langFlag(context);
  // The terminal's language (gettext's variables) when --lang does not fix one.
  const ui = lang ?? languageFromEnv(io.env);
  const env = preset === undefined ? io.env : { ...io.env, DESKPILOT_PROVIDER: preset };
  // No settings store in the CLI: the environment, or a local model server when nothing is set.
  const provider = new OpenAICompatibleProvider({ settings: () => ({}), env: () => env });
  await provider.resolveConfigProbing(); // a missing key or model fails here, before the app is read
  const pid = await targetPid();

  const write = io.write;
  let streamed = '';
  let lineOpen = false;
  const calls = new Map<string, string>();
  const onEvent = (event: AgentEvent): void => {
    switch (event.type) {
      case 'ai_chunk':
        streamed += event.delta;
        if (write !== undefined && event.delta !== '') {
          write(event.delta);
          lineOpen = !event.delta.endsWith('\n');
        }
        break;
      case 'tool_call':
        calls.set(event.callId, summarizeArguments(event));
        break;
      case 'tool_result': {
        if (lineOpen && write !== undefined) {
          write('\n');
          lineOpen = false;
        }
        const args = calls.get(event.callId) ?? '';
        // The model names the tool and writes the arguments, the app wrote most of the result: each stays on this line.
        io.stderr(`→ ${terminalLine(event.name)}${args === '' ? '' : ` ${terminalLine(args)}`} … ${terminalLine(summarizeResult(event))}`);
        break;
      }
      default:
        break;
    }
  };

  const yes = context.values['yes'] === true;
  const recording = recordingFor(context);
  const mcpConfig = context.values['mcp-config'];
  const toolbox =
    typeof mcpConfig === 'string' && mcpConfig !== ''
      ? runtime.toolbox(await loadMcpConfigFile(userPath(io.env, mcpConfig)), { onNotice: (notice) => io.stderr(`deskpilot: ${describeMcpNotice(notice)}`) })
      : undefined;
  const agent = runtime.agent({
    provider,
    tools: await withWorkflowTools(createToolRegistry(), io.env, (text) => io.stderr(`deskpilot: ${text}`)),
    ...(recording === undefined ? {} : { engine: recording.engine }),
    onEvent,
    approvalPolicy: yes ? 'auto' : 'confirm-risky',
    vision: visionFromEnv(env),
    languages: () => ({ ui, answer: lang ?? 'auto' }),
    ...(toolbox === undefined ? {} : { externalTools: () => toolbox.tools() }),
    ...(yes ? {} : { decide: terminalDecider(io, (request) => calls.get(request.callId) ?? request.summary, ui) }),
  });
  let interrupted = false;
  const remove = onInterrupt(context, () => {
    interrupted = true;
    agent.stop();
  });
  try {
    const answer = await agent.ask(question, { pid });
    if (write !== undefined) {
      // An answer that did not stream (the iteration-limit message) is printed whole.
      if (answer.text !== '' && !streamed.includes(answer.text)) {
        if (lineOpen) write('\n');
        write(answer.text);
        lineOpen = !answer.text.endsWith('\n');
      }
      if (lineOpen) write('\n');
    } else if (answer.text !== '') {
      io.stdout(answer.text);
    }
    if (recording !== undefined && !answer.stopped && !interrupted) await saveWorkflow(recording, question, pid, platform, io.stderr);
    if (answer.stopped || interrupted) {
      io.stderr('deskpilot: stopped');
      return INTERRUPTED_EXIT;
    }
    return answer.reason === 'answered' ? 0 : 1;
  } finally {
    remove();
    await toolbox?.close();
  }
}
