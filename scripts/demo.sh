#!/usr/bin/env bash
# indusr's main job on the bundled example config: mount three real MCP servers
# from npm, show the deck the agent sees, and make one real remote tool call.
# No API key needed.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
pnpm exec turbo run build --filter=indusr... --output-logs=errors-only
indusr() { node apps/cli/dist/indusr.js "$@"; }

echo "== indusr mcp status --mcp examples/mcp.json"
indusr mcp status --mcp examples/mcp.json
echo
echo "== indusr tools --mcp examples/mcp.json"
indusr tools --mcp examples/mcp.json
echo
echo "== indusr call everything__echo '{\"message\":\"hello from indus\"}' --mcp examples/mcp.json"
indusr call everything__echo '{"message":"hello from indus"}' --mcp examples/mcp.json
echo
echo "== indusr call fs__list_directory '{\"path\":\".\"}' --mcp examples/mcp.json  (the fs server's root is examples/)"
indusr call fs__list_directory '{"path":"."}' --mcp examples/mcp.json
cat <<'NEXT'

== What to try next (indusr is node apps/cli/dist/indusr.js here)
  indusr --help                                   every command and flag
  indusr mcp add fs -- npx -y @modelcontextprotocol/server-filesystem .
                                                  mount a server of your own (then: indusr mcp status)
  indusr mcp import --from claude-desktop         copy the servers another client already has
  OPENAI_API_KEY=... indusr -p "list the files here"
                                                  run the agent (or --base-url http://127.0.0.1:11434/v1 for Ollama)
  indusr mcp serve                                publish the deck and your servers as one MCP server
NEXT
