/** What a grep asks and what it found: the shapes the search engines and the renderer share. */

export const GREP_MODES = ["files", "content", "count"] as const;
export type GrepMode = (typeof GREP_MODES)[number];

export const GREP_LIMITS = {
  files: 1_000,
  content: 500,
  maxLimit: 10_000,
  maxLineChars: 500,
  maxOutputChars: 60_000,
  /** Raw engine output kept before parsing. */
  maxRawBytes: 32 * 1024 * 1024,
} as const;

export interface GrepQuery {
  readonly pattern: string;
  /** Absolute search root (a directory or one file). */
  readonly root: string;
  readonly include: readonly string[];
  readonly mode: GrepMode;
  readonly before: number;
  readonly after: number;
  readonly ignoreCase: boolean;
  readonly literal: boolean;
  readonly multiline: boolean;
}

/** One line of content output. */
export interface LineHit {
  readonly line: number;
  readonly text: string;
  readonly match: boolean;
}

export interface GrepFileHits {
  /** Path as shown (relative to the tool cwd when inside it). */
  readonly file: string;
  readonly count: number;
  readonly lines: readonly LineHit[];
}

export interface GrepOutcome {
  readonly files: GrepFileHits[];
  /** The engine stopped early (output cap); results are a prefix. */
  readonly truncated: boolean;
}
