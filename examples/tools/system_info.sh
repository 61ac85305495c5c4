#!/usr/bin/env bash
# A Nuwa executable tool (TOOLS.md §9) in bash: facts about the machine the tools run on.
# It takes no arguments, so it ignores stdin; it prints one JSON result envelope on stdout.
set -euo pipefail

if [[ "${1:-}" == "--tool-info" ]]; then
  cat <<'JSON'
{
  "name": "system_info",
  "description": "The host's name, operating system, CPU count and the session this call belongs to",
  "parameters": { "type": "object", "properties": {} },
  "confirm": "read",
  "category": "system",
  "timeoutMs": 5000
}
JSON
  exit 0
fi

# JSON string escaping for the few characters a host name or kernel string could contain.
json_string() {
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  printf '"%s"' "$s"
}

cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
printf '{"success": true, "data": {"hostname": %s, "os": %s, "cpus": %d, "session": %s}}\n' \
  "$(json_string "$(uname -n)")" "$(json_string "$(uname -sr)")" "$cpus" "$(json_string "${NUWA_SESSION_ID:-}")"
