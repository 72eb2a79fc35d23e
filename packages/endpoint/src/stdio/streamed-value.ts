/**
 * One long line parsed as its bytes arrive (`@streamparser/json`), so the line
 * never exists as a string beside the value parsed from it: a 50 MB result is
 * held once (as its text) instead of as bytes, line and text in turn. Strings
 * are gathered in 64 KiB byte blocks, so the chunks of the pipe die young.
 */
import { JSONParser } from "@streamparser/json";

/** What became of one line of stdout. */
export type Line =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "parsed"; readonly value: unknown; readonly head: string }
  | { readonly kind: "blank" }
  | { readonly kind: "unparsable"; readonly head: string; readonly reason: string };

/** How many bytes of a long line are decoded for an error message about it. */
const HEAD_BYTES = 200;
/** The parser's byte block for a string (its default re-joins pieces per character run). */
const STRING_BLOCK_BYTES = 64 * 1024;

export class StreamedValue {
  private readonly parser = new JSONParser({ paths: ["$"], keepStack: false, stringBufferSize: STRING_BLOCK_BYTES });
  private value: unknown;
  private seen = false;
  private failure: string | undefined;
  private head = "";

  constructor() {
    this.parser.onValue = ({ value }) => {
      this.value = value;
      this.seen = true;
    };
    this.parser.onError = (error) => {
      this.failure ??= error.message;
    };
  }

  /** Feeds the next bytes of the line; after a failure they are only skipped. */
  write(bytes: Buffer): void {
    if (this.head.length === 0) this.head = bytes.toString("utf8", 0, HEAD_BYTES);
    if (this.failure !== undefined) return;
    try {
      this.parser.write(bytes);
    } catch (error) {
      this.failure ??= error instanceof Error ? error.message : String(error);
    }
  }

  /** The line is complete: its value, or why it is not JSON. */
  end(): Line {
    if (this.failure === undefined && !this.parser.isEnded) {
      try {
        this.parser.end();
      } catch (error) {
        this.failure ??= error instanceof Error ? error.message : String(error);
      }
    }
    if (this.failure !== undefined) return { kind: "unparsable", head: this.head, reason: this.failure };
    if (!this.seen) return { kind: "blank" };
    const value = this.value;
    this.value = undefined;
    return { kind: "parsed", value, head: this.head };
  }
}
