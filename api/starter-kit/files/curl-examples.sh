#!/bin/sh
# humanlike starter kit: the free calls and the payment quote with curl.
# BASE defaults to a local `npm start`; point it at your deployment.
BASE="${HUMANLIKE_URL:-http://localhost:3000}"

# Health, profiles and prices.
curl -s "$BASE/api/healthz"
curl -s "$BASE/api/profiles"
curl -s "$BASE/api/pricing"

# A free score (3 per caller, data_consent must be true).
curl -s -X POST "$BASE/api/score" -H 'Content-Type: application/json' \
  -d '{"data_consent": true, "proposed_text": "Oh no, so sorry. That must feel awful. I am here if you want to talk tonight, maybe?", "response_delay_seconds": 45, "target_profile": "grief-support-peer"}'

# One wishlist item (needed before the third free score).
curl -s -X POST "$BASE/api/wishlist" -H 'Content-Type: application/json' \
  -d '{"text": "Score replies in Spanish too"}'

# The payment quote of a paid session: HTTP 402 with the x402 requirements (nothing is charged).
# The PAYMENT-REQUIRED header carries the same object base64-encoded; sign its first entry
# (EIP-3009) and retry the POST with PAYMENT-SIGNATURE; see humanlike-client.mjs.
curl -s -i "$BASE/api/simulate?tier=basic"
curl -s -i -X POST "$BASE/api/simulate" -H 'Content-Type: application/json' \
  -d '{"wallet_address": "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "proposed_text": "Oh no, so sorry. That must feel awful.", "response_delay_seconds": 45, "target_profile": "grief-support-peer"}'

# Public records and the discovery documents.
curl -s "$BASE/api/leaderboard?limit=5"
curl -s "$BASE/api/stats"
curl -s "$BASE/llms.txt"
curl -s "$BASE/.well-known/agent-card.json"
curl -s "$BASE/api/openapi.json"

# MCP: list the tools (stateless Streamable HTTP, JSON responses).
curl -s -X POST "$BASE/api/mcp" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
  -d '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}'
