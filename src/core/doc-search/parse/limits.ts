/**
 * How much one file may cost to read. A documentation folder is not trusted: a 3 MB .gz can
 * expand to 3 GB, a 10 MB PDF can hold 75,000 pages, and HTML nested 400,000 deep makes the
 * parser quadratic. Each bound ends in a skip with its reason, never in a crash.
 */
export interface ParseLimits {
  /** Bytes a file may have on disk. */
  fileBytes: number;
  /** Bytes a .gz may expand to, checked while it expands. */
  textBytes: number;
  /** Elements nested inside one another in HTML, DocBook or Mallard. */
  depth: number;
  /** Bytes of HTML, DocBook or Mallard: the parser's tree costs many times its source. */
  markupBytes: number;
  /** PDF pages read; later pages are left out of the index. */
  pdfPages: number;
  /** A PDF with more pages than this is not opened at all: pdf.js's own cost to open it grows with them. */
  pdfPagesMax: number;
  /**
   * Milliseconds of page reading, from the moment the PDF is open: the pages read by then are
   * indexed, the rest left out, so a long PDF gives its first pages rather than hitting the deadline.
   */
  pdfReadMs: number;
  /** Bytes one compressed PDF stream (page text, fonts) may expand to; images are not expanded to read text. */
  pdfStreamBytes: number;
  /** Characters of text kept from one file; the rest is left out. */
  chars: number;
}

/** What the worker that parses may spend on one file before it is stopped. */
export interface WorkerLimits {
  /** Wall time for one file, from the moment the worker starts on it. */
  deadlineMs: number;
  /** The worker's V8 heap (old generation); past it the worker dies and the file is skipped. */
  heapMb: number;
}

const MB = 1024 * 1024;

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  fileBytes: 20 * MB,
  textBytes: 24 * MB,
  depth: 256,
  markupBytes: 10 * MB,
  pdfPages: 500,
  pdfPagesMax: 10_000,
  pdfReadMs: 2000,
  pdfStreamBytes: 32 * MB,
  chars: 2_000_000,
};

export const DEFAULT_WORKER_LIMITS: WorkerLimits = { deadlineMs: 4000, heapMb: 256 };

/** "20 MB", "1.5 MB", "512 KB": a size for a skip reason. */
export function sizeText(bytes: number): string {
  if (bytes >= MB) return `${Number((bytes / MB).toFixed(1))} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
