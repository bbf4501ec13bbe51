import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DeskpilotError } from '../../../shared/errors';
import type { ParsedDoc } from '../types';
import { Skipped } from './format';
import { DEFAULT_PARSE_LIMITS, DEFAULT_WORKER_LIMITS, type ParseLimits, type WorkerLimits } from './limits';
import type { ParseReply, ParseRequest } from './protocol';

/** The reader itself could not run: not the file's fault, so nothing is recorded against the file. */
export class ReaderUnavailableError extends DeskpilotError {
  constructor(message: string, cause?: unknown) {
    super('INTERNAL', `the document reader could not start: ${message}`, { cause });
    this.name = 'ReaderUnavailableError';
  }
}

export interface ReaderOptions {
  parse?: Partial<ParseLimits>;
  worker?: Partial<WorkerLimits>;
  /** Another worker script (tests: one that hangs or eats memory). */
  script?: URL;
}

/** How long a worker may take to load its code: tsx compiling on a busy machine is slow, a hang is not. */
const START_DEADLINE_MS = 30_000;

/**
 * Where the worker's code is. Built, it is `docs-parse-worker.js` beside the bundle or one folder
 * up (esbuild's CLI bundle and electron-vite's main both emit it); from source, the TypeScript
 * itself, loaded through tsx.
 */
function workerScript(): { url: URL; execArgv: string[] } {
  // Flags are given, never inherited: the program's own (--input-type, --eval) can make a worker fail to start.
  for (const candidate of ['./docs-parse-worker.js', '../docs-parse-worker.js']) {
    const url = new URL(candidate, import.meta.url);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return { url, execArgv: [] };
  }
  const source = new URL('./parse-worker.ts', import.meta.url);
  if (source.protocol === 'file:' && existsSync(fileURLToPath(source))) return { url: source, execArgv: ['--import', 'tsx'] };
  throw new ReaderUnavailableError(`docs-parse-worker.js is missing beside ${import.meta.url}`);
}

interface Running {
  worker: Worker;
  /** Set when the thread ended between files; the next file starts another. */
  ended: boolean;
}

/** Why the worker died on a file, in words for the skip list. */
function crashReason(error: Error, limits: WorkerLimits): string {
  if ((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') return `needed more than ${limits.heapMb} MB of memory to read`;
  return `crashed the document reader: ${error.message.slice(0, 200)}`;
}

/**
 * Parses documents in a worker thread, one file at a time, so a hostile file can neither block
 * the program's event loop nor take the program down: each file has a deadline and the worker a
 * heap limit, and a worker that overran either is ended and replaced for the next file.
 */
export class DocReader {
  private worker: Promise<Running> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private readonly parseLimits: ParseLimits;
  readonly limits: WorkerLimits;

  constructor(private readonly options: ReaderOptions = {}) {
    this.limits = { ...DEFAULT_WORKER_LIMITS, ...options.worker };
    // Half the deadline for PDF pages, so opening the file and returning them fit in the other half.
    this.parseLimits = { ...DEFAULT_PARSE_LIMITS, pdfReadMs: Math.floor(this.limits.deadlineMs / 2), ...options.parse };
  }

  get fileBytes(): number {
    return this.parseLimits.fileBytes;
  }

  /** The parsed file; Skipped with the reason when the file cannot or must not be read. Calls queue. */
  read(file: string, bytes: Uint8Array, signal?: AbortSignal): Promise<ParsedDoc> {
    const run = this.queue.then(() => this.run(file, bytes, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private start(): Promise<Running> {
    const { url, execArgv } = this.options.script === undefined ? workerScript() : { url: this.options.script, execArgv: [] };
    const worker = new Worker(url, {
      execArgv,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.heapMb, maxYoungGenerationSizeMb: 16 },
    });
    const running: Running = { worker, ended: false };
    // Kept for the worker's life: an 'error' with no listener would throw in this thread.
    worker.on('error', () => undefined);
    worker.on('exit', () => (running.ended = true));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`not ready after ${START_DEADLINE_MS / 1000} s`)), START_DEADLINE_MS);
      const cleanup = (): void => {
        clearTimeout(timer);
        worker.off('message', ready);
        worker.off('error', fail);
        worker.off('exit', exited);
      };
      const ready = (reply: ParseReply): void => {
        if (!('ready' in reply)) return;
        cleanup();
        // Idle, it must not keep the program alive; run() refs it while a file is read.
        worker.unref();
        resolve(running);
      };
      const fail = (error: Error): void => {
        cleanup();
        void worker.terminate();
        reject(new ReaderUnavailableError(error.message, error));
      };
      const exited = (code: number): void => fail(new Error(`it exited with code ${code}`));
      worker.on('message', ready);
      worker.once('error', fail);
      worker.once('exit', exited);
    });
  }

  private async run(file: string, bytes: Uint8Array, signal: AbortSignal | undefined): Promise<ParsedDoc> {
    signal?.throwIfAborted();
    let running = await this.running();
    if (running.ended) {
      this.worker = undefined;
      running = await this.running();
    }
    const { worker } = running;
    const starting = this.worker;
    const id = this.nextId;
    this.nextId += 1;
    const copy = new Uint8Array(bytes);
    worker.ref();
    return new Promise<ParsedDoc>((resolve, reject) => {
      const finish = (outcome: { doc: ParsedDoc } | { error: unknown }, end: boolean): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        worker.off('message', answered);
        worker.off('error', crashed);
        worker.off('exit', exited);
        if (end) {
          // A worker that overran or died is replaced for the next file, never reused.
          if (this.worker === starting) this.worker = undefined;
          void worker.terminate();
        } else worker.unref();
        if ('doc' in outcome) resolve(outcome.doc);
        else reject(outcome.error);
      };
      const answered = (reply: ParseReply): void => {
        if (!('id' in reply) || reply.id !== id) return;
        finish('doc' in reply ? { doc: reply.doc } : { error: new Skipped(reply.skipped) }, false);
      };
      const crashed = (error: Error): void => finish({ error: new Skipped(crashReason(error, this.limits)) }, true);
      const exited = (code: number): void => finish({ error: new Skipped(`stopped the document reader (exit code ${code})`) }, true);
      const aborted = (): void => finish({ error: signal?.reason ?? new Error('aborted') }, true);
      const seconds = Number((this.limits.deadlineMs / 1000).toFixed(1));
      const timer = setTimeout(() => finish({ error: new Skipped(`took longer than ${seconds} s to read`) }, true), this.limits.deadlineMs);
      worker.on('message', answered);
      worker.once('error', crashed);
      worker.once('exit', exited);
      signal?.addEventListener('abort', aborted, { once: true });
      worker.postMessage({ id, file, bytes: copy, limits: this.parseLimits } satisfies ParseRequest, [copy.buffer]);
    });
  }

  private async running(): Promise<Running> {
    this.worker ??= this.start();
    try {
      return await this.worker;
    } catch (error) {
      this.worker = undefined;
      throw error;
    }
  }

  /** Ends the worker; a later read starts another. */
  close(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.then(
      (running) => running.worker.terminate(),
      () => undefined,
    );
  }
}
