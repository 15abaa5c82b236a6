import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../../domain/kernel/page.js';
import type { LedgerEntry } from '../../domain/money/ledger.js';
import type {
  AccountStore,
  ApiKeyCredential,
  ApiKeyRecord,
  ApiKeyRotation,
  LedgerQuery,
  Organization,
  OrganizationCreation,
  SpendCounter,
  SpendLimit,
} from '../../domain/ports/access.js';
import { documentSdk, dynamodbSdk } from '../aws-sdk.js';
import { organizationExists, refusedItems, refusedOnly } from './conditions.js';
import { INDEX, keys } from './keys.js';
import { membershipItems, ownerCountItem } from './member-store.js';
import { allItems, equalityFilter, newestFirst, newestFirstPage, type Partition } from './pages.js';
import { stripKeys, type Table } from './table.js';
import { endpointCountItem } from './webhook-store.js';

const { GetCommand, TransactGetCommand, TransactWriteCommand, UpdateCommand } = documentSdk;
const { ConditionalCheckFailedException, TransactionCanceledException } = dynamodbSdk;

interface SecretItem {
  key_id: string;
  org_id: string;
  expires_at: number | null;
}

/** The key item: the record, every secret hash it has (so revoke/rotate reach every secret item) and a revision for optimistic writes. */
type KeyItem = ApiKeyRecord & { secret_hashes: string[]; rev?: number };
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const MAX_KEY_WRITE_ATTEMPTS = 5;

function credentialOf(item: Record<string, unknown> | undefined): ApiKeyCredential | null {
  if (!item) return null;
  const secret = item as unknown as SecretItem & { key: ApiKeyRecord };
  return { key: secret.key, secretExpiresAt: secret.expires_at };
}

function keyRecord(item: KeyItem): ApiKeyRecord {
  const { secret_hashes: _hashes, rev: _rev, ...record } = item;
  return record;
}

async function ignoringConditionFailure(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

export class DynamoAccountStore implements AccountStore {
  constructor(private readonly table: Table) {}

  async getOrganization(id: string): Promise<Organization | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.organization(id), ConsistentRead: true }),
    );
    return out.Item ? stripKeys<Organization>(out.Item) : null;
  }

  /**
   * One transaction: the organisation, both balances with their starting deposits, the webhook
   * endpoint count (at zero, so events may be written without dispatch), the keys and the
   * founding owner with its owner count. The owner's pointer item refuses a second organisation
   * for the same person, which is what makes a retried sign-up create one.
   */
  async createOrganization(creation: OrganizationCreation): Promise<boolean> {
    const { organization, balances, ledger, apiKeys, owner } = creation;
    const put = (item: Record<string, unknown>): TransactItem => ({
      Put: { TableName: this.table.name, Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
    });
    const items: TransactItem[] = [
      ...membershipItems(this.table.name, owner),
      ownerCountItem(this.table.name, organization.id, 1),
      put({
        ...keys.organization(organization.id),
        gsi2pk: keys.organizations(),
        gsi2sk: organization.id,
        ...organization,
      }),
      put({ ...keys.balance(organization.id, true), amount: balances.live }),
      put({ ...keys.balance(organization.id, false), amount: balances.test }),
      ...ledger.map((entry) => put({ ...keys.ledger(entry.org_id, entry.livemode, entry.id), ...entry })),
      endpointCountItem(this.table.name, organization.id),
      ...apiKeys.flatMap(({ key, secretHash }) => this.keyItems(key, secretHash)),
    ];
    try {
      await this.table.doc.send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (error) {
      // the owner's pointer (item 0) exists: they already have an organisation
      if (refusedItems(error).some(({ index }) => index === 0)) return false;
      // a concurrent creation for the same owner (a retried sign-up) may cancel this one as a conflict
      if (
        error instanceof TransactionCanceledException &&
        (
          await this.table.doc.send(
            new GetCommand({ TableName: this.table.name, Key: keys.memberRef(owner.id), ConsistentRead: true }),
          )
        ).Item
      )
        return false;
      throw error;
    }
  }

  async listOrganizations(): Promise<Organization[]> {
    return allItems<Organization>(this.table, {
      IndexName: INDEX.byOrg,
      KeyConditionExpression: 'gsi2pk = :all',
      ExpressionAttributeValues: { ':all': keys.organizations() },
    });
  }

  async getBalance(orgId: string, livemode: boolean): Promise<number> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.balance(orgId, livemode), ConsistentRead: true }),
    );
    return Number(out.Item?.amount ?? 0);
  }

  /**
   * Newest first. A mode's entries are one partition; across both modes the two partitions' pages
   * are merged by id. Entries written before the per-mode partitions are merged in from where they
   * are: the organisation's old partition, or its per-mode `gsi1` entries.
   */
  async listLedger(query: LedgerQuery): Promise<Page<LedgerEntry>> {
    const modes = query.livemode === undefined ? [true, false] : [query.livemode];
    const partitions: Partition[] = [
      ...modes.map((livemode) => ({
        pkName: 'pk',
        skName: 'sk',
        value: keys.ledgerOfOrgAndMode(query.orgId, livemode),
        read: { ConsistentRead: true },
      })),
      query.livemode === undefined
        ? { pkName: 'pk', skName: 'sk', value: keys.legacyLedgerOfOrg(query.orgId), read: { ConsistentRead: true } }
        : {
            pkName: 'gsi1pk',
            skName: 'gsi1sk',
            value: keys.ledgerOfOrgAndMode(query.orgId, query.livemode),
            read: { IndexName: INDEX.byOrgAndMode },
          },
    ];
    // entries written before the slug was stored have none, so they match no endpoint filter
    const filter = equalityFilter({ job_endpoint: query.jobEndpoint });
    const pages = await Promise.all(
      partitions.map((partition) => newestFirstPage<LedgerEntry>(this.table, partition, query, filter)),
    );
    return newestFirst(pages, query.limit);
  }

  async putApiKey(key: ApiKeyRecord, secretHash: string): Promise<boolean> {
    try {
      await this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [...this.keyItems(key, secretHash), organizationExists(this.table.name, key.org_id)],
        }),
      );
      return true;
    } catch (error) {
      if (refusedOnly(error, 3)) return false;
      throw error;
    }
  }

  async findCredential(secretHash: string): Promise<ApiKeyCredential | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.secret(secretHash), ConsistentRead: true }),
    );
    return credentialOf(out.Item);
  }

  async findCredentialWithKeysVersion(
    secretHash: string,
    orgId: string,
    livemode: boolean,
  ): Promise<{ credential: ApiKeyCredential | null; keysVersion: number }> {
    const out = await this.table.doc.send(
      new TransactGetCommand({
        TransactItems: [
          { Get: { TableName: this.table.name, Key: keys.secret(secretHash) } },
          {
            Get: {
              TableName: this.table.name,
              Key: keys.balance(orgId, livemode),
              ProjectionExpression: 'keys_version',
            },
          },
        ],
      }),
    );
    const [secret, balance] = out.Responses ?? [];
    return { credential: credentialOf(secret?.Item), keysVersion: Number(balance?.Item?.keys_version ?? 0) };
  }

  async listApiKeys(orgId: string): Promise<ApiKeyRecord[]> {
    const { pk, skPrefix } = keys.apiKeysOfOrg(orgId);
    const items = await allItems<KeyItem>(this.table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      ConsistentRead: true,
    });
    return items.map(keyRecord).sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
  }

  async getApiKey(keyId: string): Promise<ApiKeyRecord | null> {
    const ref = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.apiKeyRef(keyId), ConsistentRead: true }),
    );
    if (!ref.Item) return null;
    const item = await this.readKey(String(ref.Item.org_id), keyId);
    return item ? keyRecord(item) : null;
  }

  async revokeApiKey(orgId: string, keyId: string, revokedAt: number): Promise<ApiKeyRecord | null> {
    for (let attempt = 1; ; attempt += 1) {
      const item = await this.readKey(orgId, keyId);
      if (!item) return null;
      const current = keyRecord(item);
      if (current.revoked_at !== null) return current;
      const revoked: ApiKeyRecord = { ...current, revoked_at: revokedAt };
      const writes: TransactItem[] = [
        this.keyUpdate(item, 'SET revoked_at = :revoked', { ':revoked': revokedAt }),
        // findCredential reads only the secret item, so its snapshot must say "revoked" in the same transaction
        ...item.secret_hashes.map((hash) => this.secretUpdate(hash, 'SET #key = :key', { ':key': revoked })),
        this.keysVersionBump(current),
      ];
      if (await this.transact(writes, attempt)) return revoked;
    }
  }

  async setApiKeySpendLimit(orgId: string, keyId: string, limit: SpendLimit | null): Promise<ApiKeyRecord | null> {
    for (let attempt = 1; ; attempt += 1) {
      const item = await this.readKey(orgId, keyId);
      if (!item) return null;
      const limited: ApiKeyRecord = { ...keyRecord(item), spend_limit: limit };
      const writes: TransactItem[] = [
        this.keyUpdate(item, 'SET spend_limit = :limit', { ':limit': limit }),
        // an admission holds the limit its principal was read with: the secrets' snapshots change with the key, and the
        // keys version with them, so a principal cached with the old limit is refused and read again
        ...item.secret_hashes.map((hash) => this.secretUpdate(hash, 'SET #key = :key', { ':key': limited })),
        this.keysVersionBump(limited),
      ];
      if (await this.transact(writes, attempt)) return limited;
    }
  }

  async readKeySpend(counters: readonly SpendCounter[]): Promise<number[]> {
    return Promise.all(
      counters.map(async ({ counterKey, field }) => {
        const out = await this.table.doc.send(
          new GetCommand({
            TableName: this.table.name,
            Key: keys.keySpend(counterKey),
            ConsistentRead: true,
            ProjectionExpression: '#f',
            ExpressionAttributeNames: { '#f': field },
          }),
        );
        return Number(out.Item?.[field] ?? 0);
      }),
    );
  }

  async rotateApiKey(orgId: string, keyId: string, rotation: ApiKeyRotation): Promise<ApiKeyRecord | 'revoked' | null> {
    for (let attempt = 1; ; attempt += 1) {
      const item = await this.readKey(orgId, keyId);
      if (!item) return null;
      const current = keyRecord(item);
      if (current.revoked_at !== null) return 'revoked';
      const rotated: ApiKeyRecord = { ...current, prefix: rotation.prefix };
      const secrets = await Promise.all(
        item.secret_hashes.map(async (hash) => {
          const out = await this.table.doc.send(
            new GetCommand({ TableName: this.table.name, Key: keys.secret(hash), ConsistentRead: true }),
          );
          return { hash, secret: out.Item as SecretItem | undefined };
        }),
      );
      // secrets already past their expiry are deleted, so the key item's list (and this transaction) stays short
      const live = secrets.filter(
        ({ secret }) => secret && (secret.expires_at === null || secret.expires_at > rotation.now),
      );
      const dead = secrets.filter(({ secret }) => secret && !live.some((l) => l.secret === secret));
      const newSecret: SecretItem = { key_id: keyId, org_id: orgId, expires_at: null };
      const writes: TransactItem[] = [
        this.keyUpdate(item, 'SET prefix = :prefix, secret_hashes = :hashes', {
          ':prefix': rotation.prefix,
          ':hashes': [...live.map(({ hash }) => hash), rotation.secretHash],
        }),
        {
          Put: {
            TableName: this.table.name,
            Item: { ...keys.secret(rotation.secretHash), ...newSecret, key: rotated },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...live.map(({ hash, secret }) =>
          this.secretUpdate(hash, 'SET expires_at = :expires, #key = :key', {
            ':expires': Math.min(secret!.expires_at ?? Infinity, rotation.oldSecretsExpireAt),
            ':key': rotated,
          }),
        ),
        ...dead.map(({ hash }) => ({ Delete: { TableName: this.table.name, Key: keys.secret(hash) } })),
        this.keysVersionBump(current),
      ];
      if (await this.transact(writes, attempt)) return rotated;
    }
  }

  async touchApiKey(secretHash: string, key: ApiKeyRecord, now: number, staleBefore: number): Promise<void> {
    const values = { ':now': now, ':null': null, ':stale': staleBefore };
    await Promise.all([
      ignoringConditionFailure(
        this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: keys.apiKey(key.org_id, key.id),
            UpdateExpression: 'SET last_used_at = :now',
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at = :null OR last_used_at < :stale)',
            ExpressionAttributeValues: values,
          }),
        ),
      ),
      // the snapshot the next lookup reads: once it is fresh, requests through this secret skip the write
      ignoringConditionFailure(
        this.table.doc.send(
          new UpdateCommand({
            TableName: this.table.name,
            Key: keys.secret(secretHash),
            UpdateExpression: 'SET #key.last_used_at = :now',
            ConditionExpression: 'attribute_exists(pk) AND (#key.last_used_at = :null OR #key.last_used_at < :stale)',
            ExpressionAttributeNames: { '#key': 'key' },
            ExpressionAttributeValues: values,
          }),
        ),
      ),
    ]);
  }

  /** A new key: its item, its secret's item and the pointer from its id to its organisation. */
  private keyItems(key: ApiKeyRecord, secretHash: string): TransactItem[] {
    const secret: SecretItem = { key_id: key.id, org_id: key.org_id, expires_at: null };
    return [
      {
        Put: {
          TableName: this.table.name,
          Item: { ...keys.apiKey(key.org_id, key.id), ...key, secret_hashes: [secretHash], rev: 0 },
        },
      },
      { Put: { TableName: this.table.name, Item: { ...keys.secret(secretHash), ...secret, key } } },
      { Put: { TableName: this.table.name, Item: { ...keys.apiKeyRef(key.id), org_id: key.org_id } } },
    ];
  }

  private async readKey(orgId: string, keyId: string): Promise<KeyItem | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.apiKey(orgId, keyId), ConsistentRead: true }),
    );
    return out.Item ? stripKeys<KeyItem>(out.Item) : null;
  }

  /** An update of the key item conditioned on the revision read, so concurrent revoke/rotate cannot interleave. */
  private keyUpdate(item: KeyItem, update: string, values: Record<string, unknown>): TransactItem {
    const revision = item.rev ?? 0;
    return {
      Update: {
        TableName: this.table.name,
        Key: keys.apiKey(item.org_id, item.id),
        UpdateExpression: `${update}, rev = :next`,
        ConditionExpression:
          item.rev === undefined ? 'attribute_exists(pk) AND attribute_not_exists(rev)' : 'rev = :rev',
        ExpressionAttributeValues: {
          ...values,
          ':next': revision + 1,
          ...(item.rev === undefined ? {} : { ':rev': revision }),
        },
      },
    };
  }

  /**
   * Admissions act on a cached principal and hold their transaction to the keys version read with
   * it (`expectKeysVersion`): bumping it with a revocation or rotation makes the very next
   * admission of that organisation and mode re-read its key.
   */
  private keysVersionBump(key: ApiKeyRecord): TransactItem {
    return {
      Update: {
        TableName: this.table.name,
        Key: keys.balance(key.org_id, key.livemode),
        UpdateExpression: 'ADD keys_version :one',
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
  }

  private secretUpdate(hash: string, update: string, values: Record<string, unknown>): TransactItem {
    return {
      Update: {
        TableName: this.table.name,
        Key: keys.secret(hash),
        UpdateExpression: update,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#key': 'key' },
        ExpressionAttributeValues: values,
      },
    };
  }

  /** false when a concurrent write won (the caller re-reads and tries again) */
  private async transact(items: TransactItem[], attempt: number): Promise<boolean> {
    try {
      await this.table.doc.send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (error) {
      if (error instanceof TransactionCanceledException && attempt < MAX_KEY_WRITE_ATTEMPTS) return false;
      throw error;
    }
  }
}
