/**
 * JSON with comments and trailing commas (VS Code's and opencode's files allow
 * both), read with jsonc-parser: the same library the CLI edits these files
 * with, so reading and writing agree on what the format is.
 */
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";

/** Parses JSONC; throws an Error naming the first problem and its offset. */
export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const value: unknown = parse(clean, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) throw new Error(`${printParseErrorCode(first.error)} at offset ${first.offset}`);
  return value;
}
