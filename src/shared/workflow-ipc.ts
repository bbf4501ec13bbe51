import type { SerializedError } from './errors';
import type { ChatEntry } from './transcript';

/**
 * The Workflows view's part of the IPC contract (renderer ↔ main ↔ host). Types only, like
 * ipc.ts, because the sandboxed preload imports it; the schemas are in workflow-ipc-schemas.ts.
 */

/** One parameter as the window's form shows it. A secret one never carries a default. */
export interface WorkflowParameterInfo {
  name: string;
  description?: string;
  default?: string;
  secret: boolean;
}

/** A saved workflow in the folder, as the list shows it. */
export interface WorkflowSummary {
  /** The file name without `.json`: what run and save name it by. */
  name: string;
  /** The workflow's own name (its `name` field). */
  title: string;
  description?: string;
  app?: string;
  steps: number;
  parameters: WorkflowParameterInfo[];
  /** Some step is one the safety rules ask about (delete, send, quit…). */
  risky: boolean;
}

export interface WorkflowListReply {
  workflows: WorkflowSummary[];
  /** The folder they come from, so the user knows where to put files. */
  folder: string;
  /** Files that were skipped, by name, with the reason cut short. */
  skipped: { file: string; reason: string }[];
}

export interface WorkflowRunRequest {
  name: string;
  /** Parameter values typed for this run; secret ones only ever come from here. */
  vars: Record<string, string>;
  dryRun?: boolean | undefined;
  /** Risky steps run without asking (the CLI's --yes); secret fields stay guarded. */
  trusted?: boolean | undefined;
}

export interface WorkflowRunReply {
  runId: string;
}

/** One step as it ran or was planned (the core's StepReport). */
export interface WorkflowStepInfo {
  step: number;
  action: string;
  intent?: string;
  status: 'ok' | 'halted' | 'planned' | 'unresolved' | 'not_run';
  target?: string;
  rung?: 'identity' | 'relaxed' | 'ocr';
  nodeId?: string;
  ms?: number;
  note?: string;
}

/** Why a run stopped (the core's HaltReport): nothing after `step` ran. */
export interface WorkflowHaltInfo {
  step: number;
  action: string;
  intent?: string;
  code: string;
  message: string;
  lookedFor?: string;
  candidates: { id: string; role: string; name: string; reason: string }[];
  screenshot?: string;
}

export interface WorkflowRunInfo {
  workflow: string;
  status: 'completed' | 'halted' | 'planned';
  steps: WorkflowStepInfo[];
  halt?: WorkflowHaltInfo;
  ms: number;
}

/** What a run reports while it goes, host → main → renderer. */
export type WorkflowEvent =
  | { type: 'started'; runId: string; name: string; dryRun: boolean; steps: number }
  | { type: 'step'; runId: string; step: WorkflowStepInfo }
  /** A risky step waits for the user: answered through approve(), like the agent's. */
  | { type: 'approval'; runId: string; approval: Extract<ChatEntry, { kind: 'approval' }> }
  | { type: 'finished'; runId: string; report: WorkflowRunInfo }
  | { type: 'failed'; runId: string; error: SerializedError }
  /** The user stopped it: the steps shown ran, nothing after them did. */
  | { type: 'stopped'; runId: string };

export interface WorkflowDraftRequest {
  /** The completed ask whose verified actions become the steps. */
  askId: string;
}

/** What "Save as workflow" proposes before writing anything. */
export interface WorkflowDraft {
  askId: string;
  /** A file name made from the question. */
  name: string;
  /** One line per step, in words. */
  steps: string[];
  /** Values from the question (and secret fields) offered as parameters. */
  parameters: WorkflowParameterInfo[];
}

export interface WorkflowSaveRequest {
  askId: string;
  name: string;
  /** The offered parameters the user kept; the others are written as fixed values. Secret ones are always kept. */
  parameters: string[];
}
