#!/usr/bin/env bash
# usage: slack-notify.sh "#channel" "message"
# webhook url comes from SLACK_WEBHOOK_URL or /etc/tallybird/slack_webhook
set -euo pipefail
CHANNEL="$1"; shift
MSG="$*"
URL="${SLACK_WEBHOOK_URL:-$(cat /etc/tallybird/slack_webhook 2>/dev/null || true)}"
[[ -z "$URL" ]] && { echo "no slack webhook configured, skipping: $MSG" >&2; exit 0; }
payload=$(jq -n --arg c "$CHANNEL" --arg t "$MSG" '{channel: $c, text: $t}')
curl -fsS -X POST -H 'Content-Type: application/json' -d "$payload" "$URL" >/dev/null
