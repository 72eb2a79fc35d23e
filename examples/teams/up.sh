#!/usr/bin/env bash
# The gateway for teams on loopback: a real OpenID provider (oidc-provider)
# with two agents registered, and `indusr mcp serve --http` mounting
# server-everything and server-memory behind OAuth, with the access policy in
# access.json (full-agent: everything; memory-agent: memory only), an audit
# log and Prometheus metrics. Prints what a client needs, one a line, and stays
# up until SIGTERM or Ctrl-C, which stop everything it started.
#
#   GATEWAY_PORT (default 3480), ISSUER_PORT (default: any free port), AUDIT_LOG (default: in a temp folder),
#   GATEWAY_ARGS (more `indusr mcp serve` flags, e.g. --stateless),
#   TEAMS_MCP (default examples/teams/mcp.json: the mounted servers; their pins are in the lock file beside it)
set -euo pipefail
cd "$(dirname "$0")/../.."

GATEWAY_PORT=${GATEWAY_PORT:-3480}
ISSUER_PORT=${ISSUER_PORT:-0}
GATEWAY_URL="http://127.0.0.1:${GATEWAY_PORT}/mcp"
export INDUS_TEAMS_STATE=${INDUS_TEAMS_STATE:-$(mktemp -d "${TMPDIR:-/tmp}/indus-teams-XXXXXX")}
mkdir -p "$INDUS_TEAMS_STATE"
AUDIT_LOG=${AUDIT_LOG:-$INDUS_TEAMS_STATE/audit.log}
TEAMS_MCP=${TEAMS_MCP:-examples/teams/mcp.json}

if [[ ! -f apps/cli/dist/indusr.js ]]; then
  pnpm exec turbo run build --filter=indusr... --output-logs=errors-only >&2
fi

pids=()
stop() {
  trap - EXIT TERM INT
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait || true
}
trap stop EXIT
trap 'stop; exit 0' TERM INT

node examples/teams/issuer.mjs --resource "$GATEWAY_URL" --port "$ISSUER_PORT" >"$INDUS_TEAMS_STATE/issuer.json" 2>"$INDUS_TEAMS_STATE/issuer.log" &
pids+=($!)
for _ in $(seq 1 300); do
  [[ -s "$INDUS_TEAMS_STATE/issuer.json" ]] && break
  kill -0 "${pids[0]}" 2>/dev/null || { cat "$INDUS_TEAMS_STATE/issuer.log" >&2; exit 1; }
  sleep 0.1
done
ISSUER_URL=$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).issuer)' "$INDUS_TEAMS_STATE/issuer.json")

# --profile survey: every mounted tool is published, and access.json decides who may call which.
node apps/cli/dist/indusr.js mcp serve --http --port "$GATEWAY_PORT" --no-builtins --profile survey \
  --mcp "$TEAMS_MCP" \
  --auth-issuer "$ISSUER_URL" --auth-scope mcp:tools \
  --access examples/teams/access.json \
  --audit-log "$AUDIT_LOG" --metrics ${GATEWAY_ARGS:-} \
  2>"$INDUS_TEAMS_STATE/gateway.log" &
pids+=($!)
READY_URL="http://127.0.0.1:${GATEWAY_PORT}/readyz"
for _ in $(seq 1 600); do
  node -e 'fetch(process.argv[1]).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))' "$READY_URL" && break
  kill -0 "${pids[1]}" 2>/dev/null || { cat "$INDUS_TEAMS_STATE/gateway.log" >&2; exit 1; }
  sleep 0.2
done

echo "GATEWAY_URL=$GATEWAY_URL"
echo "ISSUER_URL=$ISSUER_URL"
echo "FULL_CLIENT=full-agent:full-agent-secret"
echo "MEMORY_CLIENT=memory-agent:memory-agent-secret"
echo "AUDIT_LOG=$AUDIT_LOG"

wait -n "${pids[@]}" || true
