/**
 * What the model is sent for one tool result. Text blocks pass through; MCP
 * media (images, audio, binary resources) are saved to files and described,
 * since base64 would only burn context. A result longer than the cap keeps
 * its head and tail with a note in between, and the full text is saved to a
 * file the model can page through with `read`.
 */
import fs from "node:fs";
import path from "node:path";
import type { ToolContentBlock, ToolResult } from "@indus/contract";

export interface RenderOptions {
  /** Where full results and media are written. */
  readonly spillDir: string;
  readonly callId: string;
  readonly maxChars: number;
}

export interface RenderedResult {
  readonly text: string;
  readonly capped?: { readonly totalChars: number; readonly file: string };
}

export const DEFAULT_RESULT_MAX_CHARS = 32_000;

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "application/pdf": "pdf",
  "application/zip": "zip",
  "application/gzip": "gz",
};

function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80) || "call";
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function spill(options: RenderOptions, suffix: string, data: string | Buffer): string {
  fs.mkdirSync(options.spillDir, { recursive: true });
  const file = path.join(options.spillDir, `${safeName(options.callId)}${suffix}`);
  fs.writeFileSync(file, data);
  return file;
}

/** Media in a result: base64 data, its MIME type, and what to call it. */
interface Media {
  readonly base64: string;
  readonly mimeType: string;
  readonly what: string;
}

function saveMedia(options: RenderOptions, index: number, { base64, mimeType, what }: Media): string {
  const data = Buffer.from(base64, "base64");
  const ext = EXTENSIONS[mimeType] ?? "bin";
  const file = spill(options, `-${index}.${ext}`, data);
  return `[${what} ${mimeType}, ${formatBytes(data.length)}, saved to ${file}]`;
}

function blockText(block: ToolContentBlock, index: number, options: RenderOptions): string {
  if (block.type === "text") return block.text;
  const value = block.value as Record<string, unknown> | null;
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const mime = typeof value.mimeType === "string" ? value.mimeType : "application/octet-stream";
    if ((value.type === "image" || value.type === "audio") && typeof value.data === "string") {
      return saveMedia(options, index, { base64: value.data, mimeType: mime, what: value.type });
    }
    if (value.type === "resource" && value.resource && typeof value.resource === "object") {
      const resource = value.resource as Record<string, unknown>;
      const uri = typeof resource.uri === "string" ? resource.uri : "?";
      if (typeof resource.text === "string") return `[resource ${uri}]\n${resource.text}`;
      if (typeof resource.blob === "string") {
        const rmime = typeof resource.mimeType === "string" ? resource.mimeType : "application/octet-stream";
        return saveMedia(options, index, { base64: resource.blob, mimeType: rmime, what: `resource ${uri}` });
      }
    }
    if (value.type === "resource_link" && typeof value.uri === "string") {
      const name = typeof value.name === "string" ? ` (${value.name})` : "";
      return `[resource link ${value.uri}${name}]`;
    }
  }
  return JSON.stringify(block.value);
}

/** The model-facing text of a result, capped. */
export function renderResult(result: ToolResult, options: RenderOptions): RenderedResult {
  let text = result.content.map((block, index) => blockText(block, index, options)).join("\n");
  if (text.length === 0 && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  if (text.length === 0) text = result.isError ? "(the tool failed without a message)" : "(no output)";
  return capText(text, options);
}

export function capText(text: string, options: RenderOptions): RenderedResult {
  if (text.length <= options.maxChars) return { text };
  const file = spill(options, ".txt", text);
  const head = Math.floor(options.maxChars * 0.75);
  const tail = Math.floor(options.maxChars * 0.2);
  const omitted = text.length - head - tail;
  const note =
    `\n\n[… output capped: ${text.length.toLocaleString("en-US")} characters in total, ${omitted.toLocaleString("en-US")} omitted here. ` +
    `The full result is saved at ${file}; use the read tool on that path (with an offset) to see the rest.]\n\n`;
  return {
    text: `${text.slice(0, head)}${note}${text.slice(text.length - tail)}`,
    capped: { totalChars: text.length, file },
  };
}
