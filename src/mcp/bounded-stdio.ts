/**
 * The stdio transport, with bounds the SDK's own lacks. Its transport closes the whole
 * session on one message over 10 MB (no reply; the process lingered), says nothing to the
 * client about a line that is not JSON, and answers bad params with a multi-line
 * InternalError. Here:
 * - a line over the limit is skipped as it streams in (never buffered whole) and answered
 *   with -32600 for its id; the session goes on;
 * - a line that is not JSON is -32700, JSON that is not a JSON-RPC message -32600;
 * - an error reply always has a one-line message, and the SDK's schema failures become -32602;
 * - a reply over the limit (which the SDK client would drop the connection for) becomes an error for its id;
 * - reading stops while MAX_IN_FLIGHT requests wait for their replies, or while the client is not
 *   reading stdout, so a flood of calls waits in the pipe, not in memory (the SDK starts every
 *   request it reads at once: 4,000 pipelined ui_tree calls held 600 MB and answered none for 75 s).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The SDK client's own read limit: a message larger than this ends its session for good. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * Requests read and not yet answered before reading stops; a pipelining client needs no more.
 * While reading is stopped, a client's replies are not read either: a handler that waited on a
 * request of its own to the client (sampling, elicitation; this server sends none) would wait
 * behind the pause.
 */
export const MAX_IN_FLIGHT = 16;

export const JSONRPC = { parseError: -32700, invalidRequest: -32600, invalidParams: -32602, internalError: -32603 } as const;

type Id = string | number | null;

/** How much of an oversized line is kept to find its id: the SDK writes `"id"` last, others first. */
const KEEP = 512;

export interface BoundedStdioOptions {
  maxMessageBytes?: number;
  maxInFlight?: number;
  log?: (line: string) => void;
}

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly max: number;
  private parts: Buffer[] = [];
  private size = 0;
  /** While a line is over the limit: its first and last bytes, for the id. */
  private skipped: { head: Buffer; tail: Buffer } | undefined;
  private closed = false;
  private readonly maxInFlight: number;
  /** Requests read and not yet answered nor cancelled, by id (a client may reuse one). */
  private readonly open = new Map<string, number>();
  private inFlight = 0;
  /** The last write to stdout did not fit its buffer; cleared on 'drain'. */
  private blocked = false;
  private readonly drained: (() => void)[] = [];
  /** While reading is paused: what is left of the chunk being read. */
  private held: Buffer | undefined;
  private paused = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream,
    private readonly stdout: NodeJS.WritableStream,
    private readonly options: BoundedStdioOptions = {},
  ) {
    this.max = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
  }

  private readonly ondata = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (!this.paused && !this.full()) {
      this.read(bytes);
      return;
    }
    // Full since the last chunk, or a chunk the stream still had when paused: it waits behind the held one.
    this.held = this.held === undefined ? bytes : Buffer.concat([this.held, bytes]);
    this.pause();
  };

  private read(bytes: Buffer): void {
    let start = 0;
    // Bounded: each turn consumes at least one byte of the chunk.
    while (start < bytes.length) {
      const newline = bytes.indexOf(10, start);
      this.take(bytes.subarray(start, newline === -1 ? bytes.length : newline));
      if (newline === -1) break;
      this.endLine();
      start = newline + 1;
      if (this.full()) {
        // The rest of this chunk (at most one pipe read) waits here; the rest of the flood waits in the pipe.
        this.held = start < bytes.length ? bytes.subarray(start) : undefined;
        this.pause();
        return;
      }
    }
  }

  private pause(): void {
    if (this.paused || this.closed) return;
    this.paused = true;
    this.stdin.pause();
  }

  private full(): boolean {
    return this.inFlight >= this.maxInFlight || this.blocked;
  }

  /** Reads on once a reply made room and stdout takes writes again. */
  private readOn(): void {
    if (!this.paused || this.full() || this.closed) return;
    this.paused = false;
    const held = this.held;
    this.held = undefined;
    if (held !== undefined) this.read(held);
    if (!this.paused) this.stdin.resume();
  }

  private readonly ondrain = (): void => {
    this.blocked = false;
    for (const resolve of this.drained.splice(0)) resolve();
    this.readOn();
  };

  private readonly onstreamerror = (error: Error): void => this.onerror?.(error);

  start(): Promise<void> {
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onstreamerror);
    this.stdout.on('drain', this.ondrain);
    return Promise.resolve();
  }

  private take(piece: Buffer): void {
    if (this.skipped !== undefined) {
      this.size += piece.length;
      this.skipped.tail = Buffer.concat([this.skipped.tail, piece]).subarray(-KEEP);
      return;
    }
    if (this.size + piece.length <= this.max) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    const sofar = Buffer.concat([...this.parts, piece]);
    this.skipped = { head: sofar.subarray(0, KEEP), tail: sofar.subarray(-KEEP) };
    this.parts = [];
    this.size += piece.length;
  }

  private endLine(): void {
    const { skipped, size } = this;
    const line = skipped === undefined ? Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '') : '';
    this.parts = [];
    this.size = 0;
    this.skipped = undefined;
    if (skipped !== undefined) {
      const id = idIn(skipped.tail.toString('utf8')) ?? idIn(skipped.head.toString('utf8')) ?? null;
      this.options.log?.(`refused a message of ${size} bytes (over the ${this.max}-byte limit)`);
      this.refuse(id, JSONRPC.invalidRequest, `Invalid Request: the message is ${size} bytes, over the limit of ${this.max} bytes`);
      return;
    }
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      this.refuse(null, JSONRPC.parseError, `Parse error: ${oneLine(error instanceof Error ? error.message : String(error))}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      const why = Array.isArray(json) ? 'batches are not supported' : 'not a JSON-RPC 2.0 request, notification or response';
      this.refuse(idOf(json), JSONRPC.invalidRequest, `Invalid Request: ${why}`);
      return;
    }
    this.count(parsed.data);
    this.onmessage?.(parsed.data);
  }

  /** A request opens until its reply is sent; a client's cancellation closes it too (the SDK sends no reply then). */
  private count(message: JSONRPCMessage): void {
    const { method, id, params } = message as { method?: unknown; id?: Id; params?: { requestId?: unknown } };
    if (typeof method !== 'string') return;
    if (id !== undefined && id !== null) {
      this.open.set(keyOf(id), (this.open.get(keyOf(id)) ?? 0) + 1);
      this.inFlight += 1;
    } else if (method === 'notifications/cancelled') {
      const requestId = params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.answered(requestId);
    }
  }

  private answered(id: string | number): void {
    const key = keyOf(id);
    const count = this.open.get(key);
    if (count === undefined) return;
    if (count <= 1) this.open.delete(key);
    else this.open.set(key, count - 1);
    this.inFlight -= 1;
  }

  private refuse(id: Id, code: number, message: string): void {
    // A reply to a response or notification is not expected by anyone, but JSON-RPC says id null is the answer to what cannot be read.
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    let json = JSON.stringify(normalizeError(message));
    if (Buffer.byteLength(json) > this.max) {
      const id = (message as { id?: Id }).id ?? null;
      this.options.log?.(`a reply of ${Buffer.byteLength(json)} bytes was over the ${this.max}-byte limit; sent an error instead`);
      json = JSON.stringify({
        jsonrpc: '2.0',
        id,
        error: { code: JSONRPC.internalError, message: `the reply is ${Buffer.byteLength(json)} bytes, over the limit of ${this.max} bytes; ask for less` },
      });
    }
    const { id, method } = message as { id?: Id; method?: unknown };
    if (method === undefined && (typeof id === 'string' || typeof id === 'number')) this.answered(id);
    const written = this.stdout.write(`${json}\n`);
    if (!written) this.blocked = true;
    // One 'drain' listener for all waiting writes (one each overflowed the listener limit under a flood).
    const done = written ? Promise.resolve() : new Promise<void>((resolve) => this.drained.push(resolve));
    this.readOn();
    return done;
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onstreamerror);
    this.stdout.off('drain', this.ondrain);
    this.stdin.pause();
    this.parts = [];
    this.held = undefined;
    for (const resolve of this.drained.splice(0)) resolve();
    this.onclose?.();
    return Promise.resolve();
  }
}

function keyOf(id: string | number): string {
  return `${typeof id}:${id}`;
}

/** The id of a request as JSON-RPC allows it (a string or number), or undefined. */
function idOf(json: unknown): Id {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return null;
  const id = (json as { id?: unknown }).id;
  return typeof id === 'number' || (typeof id === 'string' && id.length <= 200) ? id : null;
}

/** `"id":12` or `"id":"abc"` at either end of a line too large to parse. */
function idIn(text: string): Id | undefined {
  const match = /"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")\s*[,}]/.exec(text);
  if (match?.[1] === undefined) return undefined;
  try {
    return JSON.parse(match[1]) as string | number;
  } catch {
    return undefined;
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 500 ? `${line.slice(0, 499)}…` : line;
}

/**
 * The SDK answers a request whose params fail its schema with InternalError and the zod issue
 * list as a pretty-printed JSON message. That is -32602, said in one line.
 */
export function normalizeError(message: JSONRPCMessage): JSONRPCMessage {
  const error = (message as { error?: { code: number; message: string; data?: unknown } }).error;
  if (error === undefined) return message;
  const issues = zodIssues(error.message);
  if (issues !== undefined && (error.code === JSONRPC.internalError || error.code === JSONRPC.invalidParams)) {
    const described = issues.map((issue) => `${issue.path.length === 0 ? 'params' : `'${issue.path.join('.')}'`}: ${oneLine(issue.message)}`).join('; ');
    return { ...message, error: { ...error, code: JSONRPC.invalidParams, message: oneLine(`Invalid params: ${described}`) } } as JSONRPCMessage;
  }
  return { ...message, error: { ...error, message: oneLine(error.message) } } as JSONRPCMessage;
}

function zodIssues(text: string): { path: (string | number)[]; message: string }[] | undefined {
  if (!/^\s*\[/.test(text)) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
    const issues = parsed.filter(
      (issue): issue is { path: (string | number)[]; message: string } =>
        issue !== null &&
        typeof issue === 'object' &&
        Array.isArray((issue as { path?: unknown }).path) &&
        typeof (issue as { message?: unknown }).message === 'string',
    );
    return issues.length === parsed.length ? issues.slice(0, 5) : undefined;
  } catch {
    return undefined;
  }
}
