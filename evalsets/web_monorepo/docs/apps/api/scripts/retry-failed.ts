// Re-queue failed BullMQ jobs. Used from docs/runbooks/stuck-jobs.md.
//
//   pnpm --filter @ferngrove/api jobs:retry-failed -- --queue email [--name reminder] [--dry-run]
//
// Only retries; it never deletes. Jobs that fail again land back in the failed set.
import { parseArgs } from 'node:util';

import { jobs, QUEUE_NAMES, type QueueName } from '../src/jobs/queue.js';

const { values } = parseArgs({
  options: {
    queue: { type: 'string' },
    name: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
  },
});

const queueName = values.queue as QueueName | undefined;
if (!queueName || !QUEUE_NAMES.includes(queueName)) {
  process.stderr.write(`--queue must be one of: ${QUEUE_NAMES.join(', ')}\n`);
  process.exit(2);
}

const queue = jobs[queueName];
const failed = await queue.getFailed(0, 999);
const selected = values.name ? failed.filter((j) => j.name === values.name) : failed;

process.stdout.write(`${selected.length} failed job(s) in "${queueName}"${values.name ? ` named ${values.name}` : ''}\n`);
for (const job of selected) {
  process.stdout.write(`  ${job.id}  ${job.name}  attempts=${job.attemptsMade}  ${job.failedReason ?? ''}\n`);
  if (!values['dry-run']) await job.retry('failed');
}
process.stdout.write(values['dry-run'] ? 'dry run, nothing retried\n' : 'retried\n');
process.exit(0);
