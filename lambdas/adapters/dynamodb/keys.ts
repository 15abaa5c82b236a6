import { modeOf } from '../../domain/kernel/mode.js';

/** The single-table key layout, in one place. */
const ACTIVE_SHARDS = 8;

export const keys = {
  job: (id: string) => ({ pk: `JOB#${id}`, sk: '#' }),
  /** an inspection's stage, beside it in its partition (stage-items.ts) */
  stage: (jobId: string, stage: number) => ({ pk: `JOB#${jobId}`, sk: `STAGE#${String(stage).padStart(2, '0')}` }),
  stagesOf: (jobId: string) => ({ pk: `JOB#${jobId}`, skPrefix: 'STAGE#' }),
  jobsOfOrgAndMode: (orgId: string, livemode: boolean) => `ORGJOBS#${orgId}#${modeOf(livemode)}`,
  /** unfinished jobs are spread over a few partitions so the sweeper's index is never one hot key */
  activeShard: (id: string) => `ACTIVE#${id.charCodeAt(id.length - 1) % ACTIVE_SHARDS}`,
  activeShards: () => Array.from({ length: ACTIVE_SHARDS }, (_, n) => `ACTIVE#${n}`),
  dueAt: (epochSeconds: number, id: string) => `${String(epochSeconds).padStart(12, '0')}#${id}`,
  organization: (id: string) => ({ pk: `ORG#${id}`, sk: '#' }),
  batch: (id: string) => ({ pk: `BATCH#${id}`, sk: '#' }),
  /** one item per input line of a batch, in line order */
  batchLine: (batchId: string, line: number) => ({
    pk: `BATCH#${batchId}`,
    sk: `LINE#${String(line).padStart(6, '0')}`,
  }),
  batchesOfOrgAndMode: (orgId: string, livemode: boolean) => `ORGBATCHES#${orgId}#${modeOf(livemode)}`,
  /** unfinished batches, by when their driver's lease runs out (the sweeper takes them over) */
  batchesDue: () => 'BATCHESDUE',
  /** how far retention got through an organisation's jobs of one mode (lambdas/domain/erasure/retention.ts) */
  retentionCursor: (orgId: string, livemode: boolean) => ({
    pk: `ORG#${orgId}`,
    sk: `RETENTION#${modeOf(livemode)}`,
  }),
  /** a lease on work that must not run twice at once (the sweeper's run) */
  lease: (name: string) => ({ pk: `LEASE#${name}`, sk: '#' }),
  /** every organisation, on gsi2 (organisations created before it was kept are not on it) */
  organizations: () => 'ORGANIZATIONS',
  balance: (orgId: string, livemode: boolean) => ({ pk: `ORG#${orgId}`, sk: `BALANCE#${modeOf(livemode)}` }),
  /** one partition per organisation and mode, so listing a mode's ledger needs no index entry */
  ledger: (orgId: string, livemode: boolean, entryId: string) => ({
    pk: keys.ledgerOfOrgAndMode(orgId, livemode),
    sk: entryId,
  }),
  ledgerOfOrgAndMode: (orgId: string, livemode: boolean) => `LEDGER#${orgId}#${modeOf(livemode)}`,
  /** where entries were written before the per-mode partitions: one partition per organisation, a `gsi1` entry per mode */
  legacyLedgerOfOrg: (orgId: string) => `LEDGER#${orgId}`,
  apiKey: (orgId: string, keyId: string) => ({ pk: `ORG#${orgId}`, sk: `APIKEY#${keyId}` }),
  secret: (hash: string) => ({ pk: `SECRET#${hash}`, sk: '#' }),
  upload: (ref: string) => ({ pk: `UPLOAD#${ref}`, sk: '#' }),
  idempotency: (scopeKey: string) => ({ pk: `IDEM#${scopeKey}`, sk: '#' }),
  /** one API key's spend in one UTC day or month (lambdas/domain/access/spend-limits.ts) */
  keySpend: (counterKey: string) => ({ pk: `SPEND#${counterKey}`, sk: '#' }),
  /** points a key id at its organisation, so a key can be found by id alone */
  apiKeyRef: (keyId: string) => ({ pk: `APIKEYID#${keyId}`, sk: '#' }),
  apiKeysOfOrg: (orgId: string) => ({ pk: `ORG#${orgId}`, skPrefix: 'APIKEY#' }),
  member: (orgId: string, memberId: string) => ({ pk: `ORG#${orgId}`, sk: `MEMBER#${memberId}` }),
  membersOfOrg: (orgId: string) => ({ pk: `ORG#${orgId}`, skPrefix: 'MEMBER#' }),
  /** keeps an email to one member per organisation */
  memberEmail: (orgId: string, email: string) => ({ pk: `ORG#${orgId}`, sk: `MEMBEREMAIL#${email}` }),
  /** points a member id at its organisation: a person belongs to one (Cognito's pre-token trigger starts from the person) */
  memberRef: (memberId: string) => ({ pk: `MEMBERID#${memberId}`, sk: '#' }),
  /** how many owners an organisation has, moved with every role change and removal (the last-owner rule) */
  ownerCount: (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'OWNERS' }),
  /** one item per (day, mode, endpoint); the sort key makes a date range one Query */
  usage: (orgId: string, date: string, livemode: boolean, endpoint: string) => ({
    pk: `USAGE#${orgId}`,
    sk: `${date}#${modeOf(livemode)}#${endpoint}`,
  }),
  usageOfOrg: (orgId: string) => `USAGE#${orgId}`,
  /** a payment provider's event already applied */
  providerEvent: (provider: string, eventId: string) => ({ pk: `PROVIDEREVENT#${provider}#${eventId}`, sk: '#' }),
  webhookEndpoint: (id: string) => ({ pk: `WHE#${id}`, sk: '#' }),
  webhookEndpointsOfOrg: (orgId: string) => `ORGWHES#${orgId}`,
  /** how many webhook endpoints an organisation has; absent for organisations created before it was counted */
  webhookEndpointCount: (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'WEBHOOKENDPOINTS' }),
  event: (id: string) => ({ pk: `EVT#${id}`, sk: '#' }),
  eventsOfOrg: (orgId: string) => `ORGEVTS#${orgId}`,
  delivery: (id: string) => ({ pk: `WHD#${id}`, sk: '#' }),
  deliveriesOfEndpoint: (endpointId: string) => `WHEDELIVERIES#${endpointId}`,
  deliveryOrder: (created: number, id: string) => `${String(created).padStart(12, '0')}#${id}`,
  /** undispatched events and pending deliveries, by the time the sweeper should look at them */
  webhooksDue: () => 'WEBHOOKSDUE',
} as const;

export const INDEX = {
  byOrgAndMode: 'gsi1',
  byOrg: 'gsi2',
  due: 'gsi3',
  eventsOfOrg: 'gsi4',
  jobsOfOrgAndMode: 'gsi5',
} as const;
