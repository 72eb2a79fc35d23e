#!/usr/bin/env bash
# indusr's main job on the bundled example config: mount three real MCP servers
# from npm, show the deck the agent sees, and make one real remote tool call.
# No API key needed.
set -euo pipefail
cd "$(dirname "$0")/.."
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
echo "== indusr call fs__list_directory '{\"path\":\".\"}' --mcp examples/mcp.json"
indusr call fs__list_directory '{"path":"."}' --mcp examples/mcp.json
