/** Text heuristics shared by the file tools. */

/** Git's heuristic: a NUL byte in the first 8000 bytes means binary. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, Math.min(bytes.length, 8000)).indexOf(0) !== -1;
}

const IMAGE_SIGNATURES: readonly { mime: string; test: (b: Uint8Array) => boolean }[] = [
  { mime: "image/png", test: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 },
  { mime: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: "image/gif", test: (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38 },
  {
    mime: "image/webp",
    test: (b) =>
      b[0] === 0x52 &&
      b[1] === 0x49 &&
      b[2] === 0x46 &&
      b[3] === 0x46 &&
      b[8] === 0x57 &&
      b[9] === 0x45 &&
      b[10] === 0x42 &&
      b[11] === 0x50,
  },
];

/** The image type by magic bytes, not by extension (a renamed file is still caught). */
export function imageMime(bytes: Uint8Array): string | undefined {
  return IMAGE_SIGNATURES.find((sig) => bytes.length >= 12 && sig.test(bytes))?.mime;
}

/** Lines of a text, CRLF-tolerant, without the phantom line after a final newline. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export function clipLine(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max)}… [${line.length - max} more chars]`;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
