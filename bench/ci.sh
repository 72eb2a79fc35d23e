#!/usr/bin/env bash
# Every package's bench in its reduced form, one at a time so they do not
# disturb each other's figures. Each prints ratios against a baseline measured
# in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_QUICK=1 pnpm exec turbo run bench --concurrency=1 --output-logs=full
# Cross-package: indusr's HTTP gateway against supergateway and the server's own HTTP mode.
BENCH_QUICK=1 node bench/http-gateway.mjs
# Cross-package: the stdio gateway hop of `indusr mcp serve` against a direct call, a line relay and a bare SDK forwarder.
BENCH_QUICK=1 node bench/stdio-gateway.mjs
# Cross-package: what the teams gateway (OAuth + access policy + audit log + metrics) costs against the same gateway without.
BENCH_QUICK=1 node bench/teams-gateway.mjs
# Cross-package: peak memory of `indusr call` with a 10 MB tool result, as a multiple of the payload.
BENCH_QUICK=1 node bench/large-result.mjs
# Cross-package: what pinning (the trust gate) adds to `indusr mcp status` with 20 servers and to one call, against trust "off".
BENCH_QUICK=1 node bench/trust-pinning.mjs
# Cross-package: how soon `indusr mcp serve` with three mounts answers a handshake, against node's start and a bare SDK server.
BENCH_QUICK=1 node bench/serve-first-answer.mjs
