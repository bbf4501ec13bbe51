import OpenAI, { APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { DeskpilotError } from '../../../shared/errors';
import {
  resolveProviderConfig,
  resolveProviderConfigProbing,
  type Environment,
  type ProviderSettings,
  type ResolvedProviderConfig,
} from '../../provider-config/config';
import { probeLocalServers, type ProbeOptions, type ProbeResult } from '../../provider-config/local-probe';
import { mapRequestError, redactedCause } from './map-error';
import { secretsOf } from './redact';
import { DEFAULT_STREAM_LIMITS, StreamWatch, type StreamLimits } from './stream-watch';
import { ToolCallAssembler } from './tool-call-assembler';
import type { Provider, ProviderRequest, ProviderUsage, StreamPart } from './types';
import { wellFormed } from './well-formed';

export interface OpenAICompatibleProviderOptions {
  /** Read on every call, so a settings change applies to the next request. */
  settings: () => ProviderSettings;
  /** Read on every call (DESKPILOT_* variables can change while the app runs). */
  env?: () => Environment;
  /** The network boundary, passed in so tests and the host can substitute it. */
  fetch?: typeof globalThis.fetch;
  /** Where and how long to look for a local model server when nothing is configured (tests point it at their own). */
  probe?: ProbeOptions;
  /** How long a stream may go without progress, and last in all (tests inject short ones). */
  limits?: Partial<StreamLimits>;
}

/** How long a local server found by probing is used without asking again. */
const PROBE_REUSE_MS = 30_000;

/** Local servers accept any bearer value, but the SDK refuses to send a request without one. */
const PLACEHOLDER_KEY = 'no-key';

export class OpenAICompatibleProvider implements Provider {
  private readonly options: OpenAICompatibleProviderOptions;
  /** The last local server found, so a conversation does not probe before every request. */
  private found: { until: number; result: ProbeResult } | undefined;

  constructor(options: OpenAICompatibleProviderOptions) {
    this.options = options;
  }

  /** The configuration from settings and environment alone, without looking for local servers; throws PROVIDER_CONFIG if it is incomplete. */
  resolveConfig(): ResolvedProviderConfig {
    return resolveProviderConfig(this.options.settings(), this.options.env?.() ?? process.env);
  }

  /**
   * The configuration the next request will use: like resolveConfig, but with nothing
   * configured it looks for a local Ollama or LM Studio first. Throws PROVIDER_CONFIG.
   */
  resolveConfigProbing(): Promise<ResolvedProviderConfig> {
    return resolveProviderConfigProbing(this.options.settings(), this.options.env?.() ?? process.env, (env) => this.probe(env));
  }

  private async probe(env: Environment): Promise<ProbeResult> {
    if (this.found !== undefined && this.found.until > Date.now()) return this.found.result;
    const options = this.options.probe ?? {};
    const fetch = options.fetch ?? this.options.fetch;
    const result = await probeLocalServers(env, fetch === undefined ? options : { ...options, fetch });
    // Only a success is remembered: a server started a moment later must be found on the next request.
    this.found = result.found === undefined ? undefined : { until: Date.now() + PROBE_REUSE_MS, result };
    return result;
  }

  async identity(): Promise<string> {
    const config = await this.resolveConfigProbing();
    return `${config.baseUrl} ${config.model}`;
  }

  async *stream(request: ProviderRequest, signal?: AbortSignal): AsyncGenerator<StreamPart> {
    const config = await this.resolveConfigProbing();
    if (signal?.aborted) return;
    const watch = new StreamWatch({ ...DEFAULT_STREAM_LIMITS, ...this.options.limits }, signal);
    try {
      yield* this.streamWithin(config, request, watch);
    } finally {
      watch.stop();
    }
  }

  private async *streamWithin(config: ResolvedProviderConfig, request: ProviderRequest, watch: StreamWatch): AsyncGenerator<StreamPart> {
    const signal = watch.signal;
    const client = new OpenAI({
      apiKey: config.apiKey ?? PLACEHOLDER_KEY,
      baseURL: config.baseUrl,
      defaultHeaders: config.headers,
      fetch: this.options.fetch ?? globalThis.fetch,
      // Retries belong to the caller, which sees the typed error and retry-after.
      maxRetries: 0,
      // Stop the SDK from picking up OPENAI_ORG_ID / OPENAI_PROJECT_ID meant for other tools.
      organization: null,
      project: null,
    });
    let chunks: AsyncIterable<ChatCompletionChunk>;
    let contentType: string;
    try {
      const { data, response } = await client.chat.completions.create(toBody(request, config.model), { signal }).withResponse();
      chunks = data;
      contentType = response.headers.get('content-type') ?? '';
    } catch (error) {
      const timedOut = watch.timeout(config, '');
      if (timedOut !== undefined) throw timedOut;
      if (isCancellation(error, watch.caller)) return;
      throw blameTool(mapRequestError(error, config), error, request);
    }
    watch.answered();
    yield* readChunks(chunks, config, watch, contentType);
  }
}

function toBody(request: ProviderRequest, model: string): ChatCompletionCreateParamsStreaming {
  return {
    model: request.model ?? model,
    // App text and cut results may hold half an emoji; a strict provider refuses the whole request for it.
    messages: wellFormed(request.messages),
    stream: true,
    stream_options: { include_usage: true },
    ...(request.tools === undefined || request.tools.length === 0 ? {} : { tools: wellFormed(request.tools) }),
    ...(request.toolChoice === undefined ? {} : { tool_choice: request.toolChoice }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
  };
}

/**
 * The finish part is held back to the end because the usage chunk (empty `choices`)
 * comes after the one carrying `finish_reason`. A stream that stops before any
 * `finish_reason` was cut: the SDK either throws a bare transport error or, if the
 * socket closed cleanly, just ends; both become PROVIDER_STREAM with the partial text.
 */
async function* readChunks(
  chunks: AsyncIterable<ChatCompletionChunk>,
  config: ResolvedProviderConfig,
  watch: StreamWatch,
  contentType: string,
): AsyncGenerator<StreamPart> {
  const signal = watch.caller;
  const toolCalls = new ToolCallAssembler();
  let partial = '';
  let finishReason: string | undefined;
  let usage: ProviderUsage | undefined;
  let events = 0;
  try {
    for await (const chunk of chunks) {
      events += 1;
      if (chunk.usage) usage = toUsage(chunk.usage);
      const choice = chunk.choices[0];
      // Progress is content, a tool call, a finish or usage; an empty chunk (like an SSE comment) keeps nothing alive.
      if (chunk.usage || choice?.delta.content || choice?.delta.tool_calls?.length || choice?.finish_reason) watch.progress();
      if (choice === undefined) continue;
      const text = choice.delta.content;
      if (text) {
        partial += text;
        yield { type: 'text', delta: text };
      }
      for (const delta of choice.delta.tool_calls ?? []) toolCalls.add(delta);
      if (choice.finish_reason) {
        finishReason = choice.finish_reason;
        yield* toolCalls.finish();
      }
    }
  } catch (error) {
    if (error instanceof DeskpilotError) throw error; // ours, e.g. a nameless tool call
    const timedOut = watch.timeout(config, partial);
    if (timedOut !== undefined) throw timedOut;
    if (isCancellation(error, signal)) return;
    // After finish_reason only the usage chunk can be lost; the answer itself is whole.
    if (finishReason === undefined) throw streamCut(config, partial, error);
  }
  if (signal?.aborted) return;
  const timedOut = watch.timeout(config, partial);
  if (timedOut !== undefined) throw timedOut;
  // An event stream that just ended early is a cut answer; any other body never was a stream.
  if (events === 0 && !/event-stream/i.test(contentType)) throw notAStream(config, contentType);
  if (finishReason === undefined) throw streamCut(config, partial, undefined);
  yield usage === undefined ? { type: 'finish', reason: finishReason } : { type: 'finish', reason: finishReason, usage };
}

function streamCut(config: ResolvedProviderConfig, partial: string, cause: unknown): DeskpilotError {
  // An error event inside the stream is the server's doing; a bare end or transport error is the connection's.
  const serverSaid = cause instanceof APIError ? ' The server reported an error mid-stream.' : '';
  return new DeskpilotError('PROVIDER_STREAM', `The answer from ${config.label} was interrupted before it finished.${serverSaid}`, {
    cause: redactedCause(cause, secretsOf(config)),
    isRetryable: true,
    data: { partial, interrupted: true },
  });
}

/**
 * A refusal that names one of the request's tools is that tool's doing, not the provider's: a
 * tool from one of the user's MCP servers (`server__tool`) with a schema the model's API rejects.
 */
function blameTool(mapped: DeskpilotError, raw: unknown, request: ProviderRequest): DeskpilotError {
  const status = mapped.data?.['status'];
  if (mapped.code !== 'PROVIDER_SERVER' || (status !== 400 && status !== 422) || !(raw instanceof Error)) return mapped;
  const names = (request.tools ?? []).flatMap((tool) => ('function' in tool ? [tool.function.name] : []));
  const named = names.find((name) => name.includes('__') && raw.message.includes(name));
  if (named === undefined) return mapped;
  const server = named.split('__')[0] ?? named;
  return new DeskpilotError(
    'TOOL_SERVER',
    `${mapped.message} It refused the tool ${named}, from the MCP server ${server}: its schema is not one this model's API accepts. Fix or remove that server's tool.`,
    { cause: mapped, data: { ...mapped.data, tool: named, server } },
  );
}

/** HTTP 200 whose body held not one OpenAI stream event: a web page, a plain JSON answer, the wrong path. */
function notAStream(config: ResolvedProviderConfig, contentType: string): DeskpilotError {
  const type = contentType === '' ? 'no content type' : `content type ${JSON.stringify(contentType.slice(0, 80))}`;
  return new DeskpilotError(
    'PROVIDER_SERVER',
    `${config.label} answered HTTP 200, but not with an OpenAI-compatible stream (${type}). Check the base URL: it must be the server's OpenAI-compatible API, usually ending in /v1.`,
    { data: { reason: 'not-a-stream', contentType: contentType.slice(0, 80) } },
  );
}

function isCancellation(error: unknown, signal: AbortSignal | undefined): boolean {
  return error instanceof APIUserAbortError || signal?.aborted === true;
}

function toUsage(usage: NonNullable<ChatCompletionChunk['usage']>): ProviderUsage {
  return {
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens,
  };
}
