import type { MemberRecord, Role } from '../../../lambdas/domain/access/member.js';
import type { Page } from '../../../lambdas/domain/kernel/page.js';
import type { LedgerEntry } from '../../../lambdas/domain/money/ledger.js';
import type {
  AccountStore,
  ApiKeyCredential,
  ApiKeyRecord,
  ApiKeyRotation,
  IdempotencyRecord,
  IdempotencyStore,
  LedgerQuery,
  MemberStore,
  MembershipRefusal,
  Organization,
  OrganizationCreation,
  RateLimitCounter,
  SpendCounter,
  SpendLimit,
  StoredResponse,
} from '../../../lambdas/domain/ports/access.js';
import { balanceKey, copy, type InMemoryTables, newestFirstPage } from './tables.js';

function keyRecord(row: ApiKeyRecord & { secretHashes: string[] }): ApiKeyRecord {
  const { secretHashes: _hashes, ...record } = row;
  return copy(record);
}

/** Organisations, API keys, balances and the ledger. */
export class InMemoryAccountStore implements AccountStore {
  constructor(private readonly tables: InMemoryTables) {}

  async getOrganization(id: string): Promise<Organization | null> {
    const organization = this.tables.organizations.get(id);
    return organization ? copy(organization) : null;
  }

  async createOrganization(creation: OrganizationCreation): Promise<boolean> {
    const t = this.tables;
    if ([...t.members.values()].some((member) => member.id === creation.owner.id)) return false;
    const { organization } = creation;
    t.organizations.set(organization.id, copy(organization));
    t.balances.set(balanceKey(organization.id, true), { amount: creation.balances.live, keysVersion: 0 });
    t.balances.set(balanceKey(organization.id, false), { amount: creation.balances.test, keysVersion: 0 });
    for (const entry of creation.ledger) t.ledger.set(entry.id, copy(entry));
    t.endpointCounts.set(organization.id, 0);
    for (const { key, secretHash } of creation.apiKeys) this.addKey(key, secretHash);
    t.members.set(creation.owner.id, copy(creation.owner));
    return true;
  }

  async listOrganizations(): Promise<Organization[]> {
    return [...this.tables.organizations.values()].map(copy);
  }

  async getBalance(orgId: string, livemode: boolean): Promise<number> {
    return this.tables.balances.get(balanceKey(orgId, livemode))?.amount ?? 0;
  }

  async listLedger(query: LedgerQuery): Promise<Page<LedgerEntry>> {
    const entries = [...this.tables.ledger.values()].filter(
      (entry) =>
        entry.org_id === query.orgId &&
        (query.livemode === undefined || entry.livemode === query.livemode) &&
        (query.jobEndpoint === undefined || entry.job_endpoint === query.jobEndpoint),
    );
    return newestFirstPage(entries, query);
  }

  async putApiKey(key: ApiKeyRecord, secretHash: string): Promise<boolean> {
    if (!this.tables.organizations.has(key.org_id)) return false;
    this.addKey(key, secretHash);
    return true;
  }

  async findCredential(secretHash: string): Promise<ApiKeyCredential | null> {
    const secret = this.tables.secrets.get(secretHash);
    const row = secret && this.tables.apiKeys.get(secret.keyId);
    return row ? { key: keyRecord(row), secretExpiresAt: secret.expiresAt } : null;
  }

  async findCredentialWithKeysVersion(
    secretHash: string,
    orgId: string,
    livemode: boolean,
  ): Promise<{ credential: ApiKeyCredential | null; keysVersion: number }> {
    return {
      credential: await this.findCredential(secretHash),
      keysVersion: this.tables.balances.get(balanceKey(orgId, livemode))?.keysVersion ?? 0,
    };
  }

  async listApiKeys(orgId: string): Promise<ApiKeyRecord[]> {
    return [...this.tables.apiKeys.values()]
      .filter((row) => row.org_id === orgId)
      .map(keyRecord)
      .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
  }

  async getApiKey(keyId: string): Promise<ApiKeyRecord | null> {
    const row = this.tables.apiKeys.get(keyId);
    return row ? keyRecord(row) : null;
  }

  async revokeApiKey(orgId: string, keyId: string, revokedAt: number): Promise<ApiKeyRecord | null> {
    const row = this.tables.apiKeys.get(keyId);
    if (row?.org_id !== orgId) return null;
    if (row.revoked_at === null) {
      row.revoked_at = revokedAt;
      this.bumpKeysVersion(row);
    }
    return keyRecord(row);
  }

  async setApiKeySpendLimit(orgId: string, keyId: string, limit: SpendLimit | null): Promise<ApiKeyRecord | null> {
    const row = this.tables.apiKeys.get(keyId);
    if (row?.org_id !== orgId) return null;
    row.spend_limit = limit;
    this.bumpKeysVersion(row);
    return keyRecord(row);
  }

  async readKeySpend(counters: readonly SpendCounter[]): Promise<number[]> {
    return counters.map(({ counterKey, field }) => this.tables.keySpend.get(`${counterKey}#${field}`) ?? 0);
  }

  async rotateApiKey(orgId: string, keyId: string, rotation: ApiKeyRotation): Promise<ApiKeyRecord | 'revoked' | null> {
    const row = this.tables.apiKeys.get(keyId);
    if (row?.org_id !== orgId) return null;
    if (row.revoked_at !== null) return 'revoked';
    for (const hash of row.secretHashes) {
      const secret = this.tables.secrets.get(hash)!;
      secret.expiresAt = Math.min(secret.expiresAt ?? Number.POSITIVE_INFINITY, rotation.oldSecretsExpireAt);
    }
    row.prefix = rotation.prefix;
    row.secretHashes.push(rotation.secretHash);
    this.tables.secrets.set(rotation.secretHash, { keyId, orgId, expiresAt: null });
    this.bumpKeysVersion(row);
    return keyRecord(row);
  }

  async touchApiKey(_secretHash: string, key: ApiKeyRecord, now: number, staleBefore: number): Promise<void> {
    const row = this.tables.apiKeys.get(key.id);
    if (row && (row.last_used_at === null || row.last_used_at < staleBefore)) row.last_used_at = now;
  }

  private addKey(key: ApiKeyRecord, secretHash: string): void {
    this.tables.apiKeys.set(key.id, { ...copy(key), secretHashes: [secretHash] });
    this.tables.secrets.set(secretHash, { keyId: key.id, orgId: key.org_id, expiresAt: null });
  }

  private bumpKeysVersion(key: ApiKeyRecord): void {
    const balance = this.tables.balances.get(balanceKey(key.org_id, key.livemode));
    if (balance) balance.keysVersion += 1;
  }
}

/** Memberships, with the last-owner rule the store enforces. */
export class InMemoryMemberStore implements MemberStore {
  constructor(private readonly tables: InMemoryTables) {}

  async get(orgId: string, memberId: string): Promise<MemberRecord | null> {
    const member = this.tables.members.get(memberId);
    return member?.org_id === orgId ? copy(member) : null;
  }

  async organizationOf(memberId: string): Promise<string | null> {
    return this.tables.members.get(memberId)?.org_id ?? null;
  }

  async list(orgId: string): Promise<MemberRecord[]> {
    return [...this.tables.members.values()].filter((member) => member.org_id === orgId).map(copy);
  }

  async add(member: MemberRecord): Promise<MemberRecord | MembershipRefusal> {
    if (this.tables.members.has(member.id)) return 'user_taken';
    if (member.email && (await this.list(member.org_id)).some((other) => other.email === member.email))
      return 'email_taken';
    this.tables.members.set(member.id, copy(member));
    return member;
  }

  async changeRole(member: MemberRecord, role: Role): Promise<MemberRecord | MembershipRefusal> {
    const current = this.tables.members.get(member.id);
    if (current?.role !== member.role) return 'changed';
    if (member.role === 'owner' && role !== 'owner' && (await this.owners(member.org_id)) === 1) return 'last_owner';
    const changed = { ...current, role };
    this.tables.members.set(member.id, changed);
    return copy(changed);
  }

  async remove(member: MemberRecord): Promise<true | MembershipRefusal> {
    const current = this.tables.members.get(member.id);
    if (current?.role !== member.role) return 'changed';
    if (member.role === 'owner' && (await this.owners(member.org_id)) === 1) return 'last_owner';
    this.tables.members.delete(member.id);
    return true;
  }

  async activate(member: MemberRecord): Promise<void> {
    const current = this.tables.members.get(member.id);
    if (current) current.status = 'active';
  }

  private async owners(orgId: string): Promise<number> {
    return (await this.list(orgId)).filter((member) => member.role === 'owner').length;
  }
}

/** Powertools' record design, as the DynamoDB store keeps it: a claim holds until completed, released, expired or its lock runs out. */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  constructor(private readonly tables: InMemoryTables) {}

  async claim(record: IdempotencyRecord, now: number): Promise<IdempotencyRecord | null> {
    const holder = this.tables.idempotency.get(record.scope_key);
    if (!holder || holder.expires_at <= now || (holder.status === 'in_progress' && holder.lock_expires_at <= now)) {
      this.tables.idempotency.set(record.scope_key, copy(record));
      return null;
    }
    return copy(holder);
  }

  async complete(scopeKey: string, lockToken: string, response: StoredResponse): Promise<void> {
    const record = this.tables.idempotency.get(scopeKey);
    if (record?.lock_token !== lockToken) return;
    const { settling_until: _settling, ...rest } = record;
    this.tables.idempotency.set(scopeKey, { ...rest, status: 'completed', response: copy(response) });
  }

  async release(scopeKey: string, lockToken: string): Promise<void> {
    const record = this.tables.idempotency.get(scopeKey);
    if (record?.lock_token === lockToken && record.status === 'in_progress') this.tables.idempotency.delete(scopeKey);
  }
}

export class InMemoryRateLimitCounter implements RateLimitCounter {
  constructor(private readonly tables: InMemoryTables) {}

  async hit(counterKey: string): Promise<number> {
    const hits = (this.tables.rateLimitHits.get(counterKey) ?? 0) + 1;
    this.tables.rateLimitHits.set(counterKey, hits);
    return hits;
  }

  async read(counterKey: string): Promise<number> {
    return this.tables.rateLimitHits.get(counterKey) ?? 0;
  }
}
