import type { ParsedDoc } from '../types';
import type { ParseLimits } from './limits';

/** One file for the parse worker. */
export interface ParseRequest {
  id: number;
  file: string;
  bytes: Uint8Array;
  limits: ParseLimits;
}

/** The worker's answer: ready once at start, then per request the document or why it was skipped. */
export type ParseReply = { ready: true } | { id: number; doc: ParsedDoc } | { id: number; skipped: string };
