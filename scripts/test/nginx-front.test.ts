import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../packages/testkit/src/ports";
import { startNginxFront } from "../../packages/testkit/src/nginx-front";

it("fails naming nginx when its port answers but nginx could not take it", async () => {
  const port = await freePort();
  const squatter = http.createServer((_request, response) => response.end("ok"));
  await new Promise<void>((resolve) => squatter.listen(port, "127.0.0.1", resolve));
  const prefix = mkdtempSync(path.join(tmpdir(), "indus-nginx-front-"));
  try {
    await expect(startNginxFront({ prefix, port, replicas: [port, port] })).rejects.toThrow(/nginx exited: .*bind/s);
  } finally {
    squatter.close();
    rmSync(prefix, { recursive: true, force: true });
  }
});
