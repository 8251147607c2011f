#!/usr/bin/env bash
# Restore helper. Two modes:
#   --pitr "<UTC time>"   restore RDS to a NEW instance at that point in time (whole db)
#   --from-dump <s3 key>  pg_restore a nightly dump into a scratch db on the bastion
#   --verify-only         weekly cron: restore last night's dump to scratch, count rows, drop
#
# Never restores over the live instance. Cutting over is a manual step, see docs/runbooks/db-restore.md
set -euo pipefail

ENV="prod"
MODE=""
TARGET_TIME=""
DUMP_KEY=""
TABLES=()

while [[ $# -gt 0 ]]; do
  case "$1" in
    --env) ENV="$2"; shift 2 ;;
    --pitr) MODE=pitr; TARGET_TIME="$2"; shift 2 ;;
    --from-dump) MODE=dump; DUMP_KEY="$2"; shift 2 ;;
    --table) TABLES+=("$2"); shift 2 ;;
    --verify-only) MODE=verify; shift ;;
    *) echo "unknown arg $1" >&2; exit 2 ;;
  esac
done

SRC="tb-${ENV}-pg"
BUCKET="tallybird-${ENV}-db-dumps"
SCRATCH_DB="restore_scratch"

case "$MODE" in
  pitr)
    NEW="${SRC}-restore-$(date -u +%m%d%H%M)"
    echo "restoring ${SRC} @ ${TARGET_TIME} -> ${NEW}"
    aws rds restore-db-instance-to-point-in-time \
      --source-db-instance-identifier "$SRC" \
      --target-db-instance-identifier "$NEW" \
      --restore-time "$TARGET_TIME" \
      --db-subnet-group-name "$SRC" \
      --no-multi-az \
      --no-publicly-accessible
    aws rds wait db-instance-available --db-instance-identifier "$NEW"
    aws rds describe-db-instances --db-instance-identifier "$NEW" \
      --query 'DBInstances[0].Endpoint.Address' --output text
    ;;
  dump|verify)
    if [[ "$MODE" == verify ]]; then
      DUMP_KEY=$(aws s3 ls "s3://${BUCKET}/daily/" --recursive | sort | tail -1 | awk '{print $4}')
    fi
    aws s3 cp "s3://${BUCKET}/${DUMP_KEY}" /var/tmp/pgdump/restore.dump.gz --only-show-errors
    dropdb --if-exists "$SCRATCH_DB"; createdb "$SCRATCH_DB"
    ARGS=(--no-owner -d "$SCRATCH_DB")
    for t in "${TABLES[@]}"; do ARGS+=(-t "$t"); done
    pigz -dc /var/tmp/pgdump/restore.dump.gz | pg_restore "${ARGS[@]}"
    psql -d "$SCRATCH_DB" -Atc "select count(*) from invoices_invoice"
    if [[ "$MODE" == verify ]]; then
      dropdb "$SCRATCH_DB"
      /opt/tallybird/scripts/slack-notify.sh "#platform" "restore-verify ok: ${DUMP_KEY}"
    fi
    ;;
  *) echo "need --pitr, --from-dump or --verify-only" >&2; exit 2 ;;
esac
