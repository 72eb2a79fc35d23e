/**
 * JSON with comments and trailing commas (VS Code's `mcp.json` allows both).
 * Strict JSON is tried first; only when it fails are comments and trailing
 * commas removed (string-aware) and the text parsed again.
 */
export function parseJsonc(text: string): unknown {
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(clean);
  } catch (strictError) {
    const relaxed = stripJsonc(clean);
    if (relaxed === clean) throw strictError;
    return JSON.parse(relaxed);
  }
}

function stripJsonc(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      out += text.slice(start, ++i);
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  // A comma followed only by whitespace before } or ] is a trailing comma.
  return out.replace(/,(\s*[}\]])/g, "$1");
}
