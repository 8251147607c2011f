#!/usr/bin/env bash
# Nightly logical dump of the tallybird db -> S3. Runs from cron on bastion-1.
# RDS automated snapshots / PITR are separate; this exists so we can pull back
# one table or one customer without restoring a whole instance.
#
# usage: backup-db.sh --env prod|staging [--dry-run]
set -euo pipefail

ENV=""
DRY_RUN=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --env) ENV="$2"; shift 2 ;;
    --dry-run) DRY_RUN=1; shift ;;
    *) echo "unknown arg $1" >&2; exit 2 ;;
  esac
done
[[ -z "$ENV" ]] && { echo "--env required" >&2; exit 2; }

S3_BUCKET="tallybird-${ENV}-db-dumps"
DB_HOST="tb-${ENV}-pg.c1x2y3z4.eu-west-2.rds.amazonaws.com"
DB_NAME="tallybird"
DB_USER="backup_ro"             # read-only role, password via ~/.pgpass
WORKDIR="/var/tmp/pgdump"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="${WORKDIR}/${DB_NAME}-${ENV}-${STAMP}.dump"

mkdir -p "$WORKDIR"

echo "[$(date -u +%FT%TZ)] dump ${ENV} -> ${OUT}"
# -Fc so pg_restore can pick single tables; -Z0 + pigz is faster than built-in compression
pg_dump -h "$DB_HOST" -U "$DB_USER" -d "$DB_NAME" -Fc -Z0 --no-owner --no-privileges \
  | pigz -p 4 > "${OUT}.gz"

SIZE=$(stat -c %s "${OUT}.gz")
if (( SIZE < 50000000 )) && [[ "$ENV" == "prod" ]]; then
  # prod dump is ~9 GB compressed; anything tiny means something broke
  /opt/tallybird/scripts/slack-notify.sh "#platform" "backup-db: prod dump suspiciously small (${SIZE} bytes)"
  exit 1
fi

if (( DRY_RUN )); then
  echo "dry run, not uploading"; exit 0
fi

aws s3 cp "${OUT}.gz" "s3://${S3_BUCKET}/daily/${STAMP:0:8}/" --sse aws:kms --only-show-errors
rm -f "${OUT}.gz"

# for the BackupDumpMissing alert
cat <<METRIC | curl -fsS --data-binary @- "http://pushgateway.monitoring.tallybird.internal:9091/metrics/job/backup-db/env/${ENV}"
tallybird_backup_last_success_timestamp $(date +%s)
METRIC

echo "[$(date -u +%FT%TZ)] done (${SIZE} bytes)"
