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
# Waits until "$@" succeeds while process $2 lives (its log $3 is shown if it dies), for up to 5 minutes:
# a loaded machine can take tens of seconds to start the provider. Running out names what did not start.
await_ready() {
  local what=$1 pid=$2 log=$3
  shift 3
  local deadline=$((SECONDS + 300))
  until "$@"; do
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
    if ((SECONDS >= deadline)); then
      echo "up.sh: $what did not start within 300 s (log: $log)" >&2
      exit 1
    fi
    sleep 0.1
  done
}
# The issuer's line is complete: the file is not empty and ends with its newline.
issuer_written() { [[ -s "$INDUS_TEAMS_STATE/issuer.json" && -z "$(tail -c 1 "$INDUS_TEAMS_STATE/issuer.json")" ]]; }
gateway_ready() {
  node -e 'fetch(process.argv[1]).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))' "$READY_URL"
}
stop() {
  trap - EXIT TERM INT
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait || true
}
trap stop EXIT
trap 'stop; exit 0' TERM INT

node examples/teams/issuer.mjs --resource "$GATEWAY_URL" --port "$ISSUER_PORT" >"$INDUS_TEAMS_STATE/issuer.json" 2>"$INDUS_TEAMS_STATE/issuer.log" &
pids+=($!)
await_ready "the OpenID provider" "${pids[0]}" "$INDUS_TEAMS_STATE/issuer.log" issuer_written
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
await_ready "the gateway" "${pids[1]}" "$INDUS_TEAMS_STATE/gateway.log" gateway_ready

echo "GATEWAY_URL=$GATEWAY_URL"
echo "ISSUER_URL=$ISSUER_URL"
echo "FULL_CLIENT=full-agent:full-agent-secret"
echo "MEMORY_CLIENT=memory-agent:memory-agent-secret"
echo "AUDIT_LOG=$AUDIT_LOG"

wait -n "${pids[@]}" || true
