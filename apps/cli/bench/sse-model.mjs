// A minimal OpenAI-compatible chat server for the agent benches: every answer
// is an SSE stream; the first `toolTurns` answers call one tool, the last one
// says "done". It records when each request arrived and each answer ended, so
// the gap between them is the client's own time for one tool-call turn.
import http from "node:http";

const chunk = (delta, finish) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }], ...(finish ? { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } } : {}) })}\n\n`;

export async function startSseModel({ toolTurns, toolName, toolInput }) {
  const arrivals = [];
  const ends = [];
  const sizes = [];
  let served = 0;
  const server = http.createServer((req, res) => {
    if (req.url.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ data: [{ id: "m" }] }));
      return;
    }
    const arrived = performance.now();
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      arrivals.push(arrived);
      sizes.push(JSON.parse(body));
      const turn = served++;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      if (turn < toolTurns) {
        res.write(
          chunk(
            {
              role: "assistant",
              content: null,
              tool_calls: [
                {
                  index: 0,
                  id: `call_${turn}`,
                  type: "function",
                  function: { name: toolName, arguments: JSON.stringify(toolInput) },
                },
              ],
            },
            null,
          ),
        );
        res.write(chunk({}, "tool_calls"));
      } else {
        res.write(chunk({ role: "assistant", content: "done" }, null));
        res.write(chunk({}, "stop"));
      }
      res.end("data: [DONE]\n\n", () => ends.push(performance.now()));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = server.address().port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    /** Gaps between the end of answer k and the arrival of request k+1, ms. */
    gaps: () => arrivals.slice(1).map((at, i) => at - ends[i]),
    requests: () => sizes,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
