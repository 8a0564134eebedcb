#!/usr/bin/env bash
# Pre-submission checks, the three the hackathon's validate-submission.sh runs:
#   scripts/validate-submission.sh URL [DIR]
#   1. POST URL/reset with body {} answers 200 within 30 s (URL: the Space, or a local server)
#   2. docker build of DIR/Dockerfile within 600 s; reported SKIPPED (not passed) when no Docker
#      engine answers `docker info`
#   3. `openenv validate` exits 0 in DIR (default: the repository root)
# Exit status 0 when nothing FAILED. Tested by tests/e2e/test_packaging_scripts.py against a local server.
set -uo pipefail

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
  echo "usage: $0 URL [DIR]   e.g. $0 https://you-ticketledger.hf.space ." >&2
  exit 2
fi
URL="${1%/}"
DIR="${2:-$(cd "$(dirname "$0")/.." && pwd)}"
passed=0; failed=0; skipped=0
pass() { echo "PASS     $1"; passed=$((passed + 1)); }
fail() { echo "FAIL     $1"; failed=$((failed + 1)); }
skip() { echo "SKIPPED  $1"; skipped=$((skipped + 1)); }

# 1. The Space answers a reset.
if command -v curl >/dev/null 2>&1; then
  code=$(curl -s -o /dev/null -w '%{http_code}' -m 30 -X POST -H 'Content-Type: application/json' \
         -d '{}' "$URL/reset" || true)
else
  code=$(python3 - "$URL/reset" <<'PY' || true
import sys, urllib.error, urllib.request
request = urllib.request.Request(sys.argv[1], data=b"{}", method="POST",
                                 headers={"Content-Type": "application/json"})
try:
    print(urllib.request.urlopen(request, timeout=30).status)
except urllib.error.HTTPError as exc:
    print(exc.code)
except Exception:
    print("000")
PY
)
fi
if [ "$code" = "200" ]; then
  pass "POST $URL/reset {} -> 200"
else
  fail "POST $URL/reset {} -> ${code:-no answer} (expected 200)"
fi

# 2. The image builds.
if ! command -v docker >/dev/null 2>&1; then
  skip "docker build: no docker command here"
elif ! docker info >/dev/null 2>&1; then
  skip "docker build: no Docker engine answers 'docker info'"
elif timeout 600 docker build -q -t ticketledger-validate "$DIR" >/dev/null; then
  pass "docker build $DIR"
else
  fail "docker build $DIR (failed or took over 600 s)"
fi

# 3. openenv validate.
if command -v openenv >/dev/null 2>&1; then
  validate=(openenv validate)
elif python3 -c "import openenv.cli" >/dev/null 2>&1; then
  validate=(python3 -m openenv.cli validate)
else
  validate=()
fi
if [ ${#validate[@]} -eq 0 ]; then
  fail "openenv validate: openenv is not installed (pip install -e . installs openenv-core)"
elif output=$(cd "$DIR" && "${validate[@]}" 2>&1); then
  pass "openenv validate in $DIR"
else
  fail "openenv validate in $DIR:"
  echo "$output" | sed 's/^/         /'
fi

echo "passed=$passed skipped=$skipped failed=$failed"
[ "$failed" -eq 0 ]
