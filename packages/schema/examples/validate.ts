// examples/validate.ts: an event from a hook validated and scrubbed as the collector does, then a record built.
import {
  buildNamespace,
  EventSchema,
  MemoryRecordSchema,
  newEventId,
  newRecordId,
  safeParse,
  scrubEvent,
} from '@kiro-learn/schema';

const input: unknown = {
  event_id: newEventId(),
  session_id: 'sess-1',
  actor_id: 'alice',
  namespace: buildNamespace('alice', 'payments-api'),
  schema_version: 1,
  kind: 'prompt',
  body: {
    type: 'text',
    content: 'deploy with key AKIAIOSFODNN7EXAMPLE <private>and my notes</private>',
  },
  valid_time: new Date().toISOString(),
  source: { surface: 'api', version: '1.0.0', client_id: 'example' },
};

const parsed = safeParse(EventSchema, input);
if (!parsed.ok) {
  // Each error is `dot.path: message`, e.g. `body.turns: Too small: expected array to have >=1 items`.
  for (const error of parsed.errors) console.error(error);
  process.exit(1);
}
const event = scrubEvent(parsed.value);
console.log(event.body); // { type: 'text', content: 'deploy with key [REDACTED:aws_access_key] [REDACTED]' }
const record = MemoryRecordSchema.parse({
  record_id: newRecordId(),
  namespace: event.namespace,
  strategy: 'example',
  title: 'Deploys need the AWS key from the vault',
  summary: 'The deploy script reads the key from the environment.',
  facts: [],
  concepts: ['deploy'],
  files_touched: [],
  observation_type: 'discovery',
  source_event_ids: [event.event_id],
  created_at: new Date().toISOString(),
});
console.log(record.record_id);
const scrubbed = event.body.type === 'text' ? event.body.content : '';
if (scrubbed !== 'deploy with key [REDACTED:aws_access_key] [REDACTED]') process.exit(1);
