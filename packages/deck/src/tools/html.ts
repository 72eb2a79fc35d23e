/**
 * HTML to Markdown for `webfetch`, via turndown; scripts, styles and other non-content dropped.
 * turndown (and the DOM it parses with) loads on the first fetch of a page, not with the deck:
 * it is most of the deck's code, and a command that never fetches (`mcp status`) should not pay for it.
 */
import type TurndownService from "turndown";

let service: Promise<TurndownService> | undefined;

function converter(): Promise<TurndownService> {
  service ??= import("turndown").then(({ default: Turndown }) => {
    const made = new Turndown({
      headingStyle: "atx",
      codeBlockStyle: "fenced",
      bulletListMarker: "-",
      emDelimiter: "*",
    });
    made.remove(["script", "style", "noscript", "template", "iframe", "svg", "canvas", "head", "form"] as never);
    return made;
  });
  return service;
}

export function htmlTitle(html: string): string | undefined {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = m?.[1]?.replace(/\s+/g, " ").trim();
  return title ? decodeEntities(title) : undefined;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));
}

export async function htmlToMarkdown(html: string): Promise<string> {
  return (await converter())
    .turndown(html)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Plain text: the Markdown with link targets, emphasis and heading marks removed. */
export async function htmlToText(html: string): Promise<string> {
  return (await htmlToMarkdown(html))
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^#{1,6}\s+/gm, "")
    .replace(/(\*\*|__|\*|`)/g, "");
}
