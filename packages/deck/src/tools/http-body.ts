/** Reading an HTTP body with a byte cap, and decoding it by its declared charset. */

export async function readCapped(
  response: Response,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(0), truncated: false };
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  return { bytes: Buffer.concat(chunks), truncated };
}

export function charsetOf(contentType: string, bytes: Uint8Array): string {
  const declared = /charset=["']?([\w.:-]+)/i.exec(contentType)?.[1];
  if (declared) return declared;
  if (/html/i.test(contentType)) {
    const head = Buffer.from(bytes.subarray(0, 2048)).toString("latin1");
    const meta = /<meta[^>]+charset=["']?([\w.:-]+)/i.exec(head)?.[1];
    if (meta) return meta;
  }
  return "utf-8";
}

export function decodeText(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}
