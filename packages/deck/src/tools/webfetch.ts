/**
 * `webfetch`: GET one http(s) URL. Redirects are followed by hand so every hop
 * is checked (http/https only, at most 5); the body is capped in bytes and the
 * whole fetch in time; HTML is converted to Markdown. A non-2xx status is an
 * error result that still shows what the server said.
 */
import type { ToolResult } from "@indus/contract";
import type { Card, DeckContext } from "../vocabulary";
import { ArgError, inputObject, optEnum, optInt, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { optionsOf } from "../options";
import { errorResult } from "../results";
import { htmlTitle, htmlToMarkdown, htmlToText } from "./html";
import { charsetOf, decodeText, readCapped } from "./http-body";
import { formatBytes, looksBinary } from "./text";

export const FETCH_LIMITS = {
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 30_000,
  maxTimeoutMs: 120_000,
  maxRedirects: 5,
  maxChars: 100_000,
} as const;

const FORMATS = ["markdown", "text", "html"] as const;
const USER_AGENT = "indusr-webfetch/0.1 (+https://github.com/indus)";

export function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ArgError(`"${raw}" is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ArgError(`only http:// and https:// URLs can be fetched, not ${url.protocol}`);
  }
  return url;
}

function isTextual(contentType: string): boolean {
  return (
    contentType === "" ||
    /^text\//i.test(contentType) ||
    /(json|xml|javascript|ecmascript|yaml|toml|csv|markdown|x-sh)/i.test(contentType)
  );
}

type Limits = { readonly [K in keyof typeof FETCH_LIMITS]: number };

export function webfetchTool(deck: DeckContext): Card {
  const limits: Limits = { ...FETCH_LIMITS, ...optionsOf(deck).fetch };
  return defineCard({
    name: "webfetch",
    label: "Fetch URL",
    readOnly: true,
    description: `Fetch a web page or file over http(s) and return its content; HTML is converted to Markdown (format "text" strips markup further, "html" returns the raw page). Follows up to ${limits.maxRedirects} redirects, reads at most ${formatBytes(limits.maxBytes)}, and gives up after ${limits.timeoutMs / 1000}s unless timeout (ms) is given. Output over max_chars (default ${FETCH_LIMITS.maxChars}) is cut.`,
    parameters: objectSchema(
      {
        url: { type: "string", description: "The http:// or https:// URL to fetch." },
        format: { type: "string", enum: [...FORMATS], description: "markdown (default), text or html." },
        timeout: {
          type: "integer",
          minimum: 1,
          maximum: FETCH_LIMITS.maxTimeoutMs,
          description: "Deadline in milliseconds.",
        },
        max_chars: {
          type: "integer",
          minimum: 100,
          maximum: 1_000_000,
          description: "Cut the returned content after this many characters.",
        },
      },
      ["url"],
    ),
    async run(input, ctx) {
      const args = inputObject(input);
      const url = parseHttpUrl(reqString(args, "url"));
      const job = fetchJob(args, ctx.signal, limits);
      const fetched = await follow(url, job);
      if (fetched.kind === "failed") return errorResult(fetched.message);
      const body = await readBody(fetched, job);
      if (body.kind === "failed") return errorResult(body.message);
      return render(fetched, body, job);
    },
  });
}

/** One fetch: its arguments, limits and signals (the caller's, the deadline, both). */
interface FetchJob {
  readonly format: (typeof FORMATS)[number];
  readonly timeoutMs: number;
  readonly maxChars: number;
  readonly limits: Limits;
  readonly caller: AbortSignal;
  readonly deadline: AbortSignal;
  readonly signal: AbortSignal;
}

type Failed = { readonly kind: "failed"; readonly message: string };
type Fetched = { readonly kind: "fetched"; readonly url: URL; readonly response: Response };
type Body = { readonly kind: "body"; readonly bytes: Uint8Array; readonly truncated: boolean };

function fetchJob(args: Record<string, unknown>, caller: AbortSignal, limits: Limits): FetchJob {
  const format = optEnum(args, "format", FORMATS) ?? "markdown";
  const timeoutMs =
    optInt(args, ["timeout", "timeout_ms"], { min: 1, max: FETCH_LIMITS.maxTimeoutMs }) ?? limits.timeoutMs;
  const maxChars = optInt(args, ["max_chars", "maxChars"], { min: 100, max: 1_000_000 }) ?? FETCH_LIMITS.maxChars;
  const deadline = AbortSignal.timeout(timeoutMs);
  return { format, timeoutMs, maxChars, limits, caller, deadline, signal: AbortSignal.any([caller, deadline]) };
}

/** GET `start`, following redirects by hand so every hop is checked. */
async function follow(start: URL, job: FetchJob): Promise<Fetched | Failed> {
  let url = start;
  let hops = 0;
  try {
    for (;;) {
      const response = await fetch(url, {
        redirect: "manual",
        signal: job.signal,
        headers: {
          "user-agent": USER_AGENT,
          accept: "text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.5",
        },
      });
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location) return { kind: "fetched", url, response };
      await response.body?.cancel().catch(() => undefined);
      if (++hops > job.limits.maxRedirects)
        return failed(`webfetch: more than ${job.limits.maxRedirects} redirects, stopped at ${url.href}`);
      const next = new URL(location, url);
      if (next.protocol !== "http:" && next.protocol !== "https:")
        return failed(
          `webfetch: ${url.href} redirected to ${next.protocol} URL ${next.href}; only http(s) is followed`,
        );
      url = next;
    }
  } catch (error) {
    return failed(fetchFailure(url, error, job));
  }
}

function fetchFailure(url: URL, error: unknown, job: FetchJob): string {
  if (job.deadline.aborted && !job.caller.aborted)
    return `webfetch: ${url.href} did not answer within ${job.timeoutMs}ms`;
  if (job.caller.aborted) return "webfetch: cancelled";
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return `webfetch: could not fetch ${url.href}: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
}

async function readBody({ url, response }: Fetched, job: FetchJob): Promise<Body | Failed> {
  try {
    return { kind: "body", ...(await readCapped(response, job.limits.maxBytes)) };
  } catch (error) {
    if (job.deadline.aborted && !job.caller.aborted)
      return failed(`webfetch: ${url.href} did not finish within ${job.timeoutMs}ms`);
    return failed(`webfetch: reading ${url.href} failed: ${(error as Error).message}`);
  }
}

function failed(message: string): Failed {
  return { kind: "failed", message };
}

/** The result: a header (URL, status, type, title), then the content as asked, cut to `maxChars`. */
async function render({ url, response }: Fetched, body: Body, job: FetchJob): Promise<ToolResult> {
  const contentType = response.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  const header = [
    `URL: ${url.href}`,
    `Status: ${response.status} ${response.statusText}`.trimEnd(),
    `Content-Type: ${contentType || "(none)"}`,
  ];
  if (!isTextual(mediaType) || (mediaType === "" && looksBinary(body.bytes))) {
    const text = `${header.join("\n")}\n\n(binary content, ${formatBytes(body.bytes.length)}${body.truncated ? "+" : ""}, not shown)`;
    return { content: [{ type: "text", text }], isError: true };
  }
  const raw = decodeText(body.bytes, charsetOf(contentType, body.bytes));
  let content = raw;
  if (/html/.test(mediaType) || (mediaType === "" && /<html[\s>]/i.test(raw))) {
    const title = htmlTitle(raw);
    if (title) header.push(`Title: ${title}`);
    if (job.format === "markdown") content = await htmlToMarkdown(raw);
    else if (job.format === "text") content = await htmlToText(raw);
  }
  const notes: string[] = [];
  if (body.truncated) notes.push(`the body was cut at ${formatBytes(job.limits.maxBytes)}`);
  if (content.length > job.maxChars) {
    notes.push(`content cut at ${job.maxChars} of ${content.length} characters`);
    content = content.slice(0, job.maxChars);
  }
  const text = `${header.join("\n")}\n\n${content}${notes.length > 0 ? `\n\n[${notes.join("; ")}]` : ""}`;
  return response.ok ? { content: [{ type: "text", text }] } : { content: [{ type: "text", text }], isError: true };
}
