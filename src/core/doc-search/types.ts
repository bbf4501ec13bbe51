/** One section of a document: what the index stores and a search result points back to. */
export interface DocSection {
  /** Stable within its file: the section's own id where the format has one, else a slug of its heading. */
  anchor: string;
  /** The heading path inside the page ("Printing › Two-sided"); empty for the text before the first heading. */
  section: string;
  text: string;
}

export interface ParsedDoc {
  /** The page's title: its own where it has one, else the file name. */
  title: string;
  sections: DocSection[];
}

/** Where a file came from: the target app's help or man pages, or a folder the user chose. */
export type SourceKind = 'app-help' | 'man' | 'folder';

export interface SearchHit {
  /** The file's path, with `#anchor` for a section. */
  source: string;
  title: string;
  section: string;
  score: number;
  snippet: string;
}

export interface SearchResult {
  hits: SearchHit[];
  /** 'hybrid' when embeddings ranked too; otherwise why it is full-text only. */
  mode: 'hybrid' | 'full-text';
  note?: string;
}
