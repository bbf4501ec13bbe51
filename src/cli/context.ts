import type { ActionEngine } from '../core/actions/engine';
import type { Clock } from '../core/clock';
import type { Platform } from '../core/platform/types';
import type { Runtime } from '../core/runtime/runtime';

/** The process around a CLI run, passed in so tests drive commands without a terminal. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Writes without a newline, for streamed answers; without it `ask` prints the answer at the end. */
  write?: (text: string) => void;
  /** Registers a Ctrl-C handler and returns its remover; defaults to process SIGINT. */
  onInterrupt?: (handler: () => void) => () => void;
  /** Reads one line of the user's answer (undefined at end of input); defaults to process.stdin. */
  readLine?: () => Promise<string | undefined>;
  /** Whether a person can answer on stdin; defaults to process.stdin.isTTY. */
  stdinIsTTY?: boolean;
  /** Injected by tests; otherwise the runtime assembles one for this OS. */
  platform?: Platform;
  /** The engine's clock, injected by tests so a settle wait for an effect that never comes is counted, not waited; otherwise real time. */
  clock?: Clock;
}

/** What one command gets: the core for this run (its platform and engine at hand), its parsed options and the io. */
export interface CommandContext {
  runtime: Runtime;
  platform: Platform;
  engine: ActionEngine;
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  io: CliIo;
}
