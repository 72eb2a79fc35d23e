/** HTML to Markdown for `webfetch`, via turndown; scripts, styles and other non-content dropped. */
import TurndownService from "turndown";

let service: TurndownService | undefined;

function converter(): TurndownService {
  if (service) return service;
  service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "*",
  });
  service.remove(["script", "style", "noscript", "template", "iframe", "svg", "canvas", "head", "form"] as never);
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

export function htmlToMarkdown(html: string): string {
  return converter()
    .turndown(html)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Plain text: the Markdown with link targets, emphasis and heading marks removed. */
export function htmlToText(html: string): string {
  return htmlToMarkdown(html)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^#{1,6}\s+/gm, "")
    .replace(/(\*\*|__|\*|`)/g, "");
}
