import { GetCommand, PutCommand, TransactWriteCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { LedgerEntry } from '../../domain/ledger.js';
import type { AccountStore, ApiKeyCredential, ApiKeyRecord, Organization, Page } from '../../domain/ports.js';
import { collectPage } from './job-store.js';
import { INDEX, keys } from './keys.js';
import { stripKeys, type Table } from './table.js';

interface SecretItem {
  key_id: string;
  org_id: string;
  expires_at: number | null;
}

export class DynamoAccountStore implements AccountStore {
  constructor(private readonly table: Table) {}

  async getOrganization(id: string): Promise<Organization | null> {
    const out = await this.table.doc.send(new GetCommand({ TableName: this.table.name, Key: keys.organization(id), ConsistentRead: true }));
    return out.Item ? stripKeys<Organization>(out.Item) : null;
  }

  async putOrganization(org: Organization): Promise<void> {
    await this.table.doc.send(new PutCommand({ TableName: this.table.name, Item: { ...keys.organization(org.id), ...org } }));
  }

  async getBalance(orgId: string, livemode: boolean): Promise<number> {
    const out = await this.table.doc.send(new GetCommand({ TableName: this.table.name, Key: keys.balance(orgId, livemode), ConsistentRead: true }));
    return Number(out.Item?.amount ?? 0);
  }

  async openBalance(orgId: string, livemode: boolean): Promise<void> {
    try {
      await this.table.doc.send(
        new PutCommand({ TableName: this.table.name, Item: { ...keys.balance(orgId, livemode), amount: 0 }, ConditionExpression: 'attribute_not_exists(pk)' }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async listLedger(query: { orgId: string; livemode?: boolean; limit: number; startingAfter?: string }): Promise<Page<LedgerEntry>> {
    const byMode = query.livemode !== undefined;
    const names: Record<string, string> = { '#p': byMode ? 'gsi1pk' : 'pk', '#s': byMode ? 'gsi1sk' : 'sk' };
    const values: Record<string, unknown> = { ':p': byMode ? keys.ledgerOfOrgAndMode(query.orgId, query.livemode!) : keys.ledgerOfOrg(query.orgId) };
    let condition = '#p = :p';
    if (query.startingAfter) {
      condition += ' AND #s < :after';
      values[':after'] = query.startingAfter;
    }
    const input: QueryCommandInput = {
      TableName: this.table.name,
      ...(byMode ? { IndexName: INDEX.byOrgAndMode } : { ConsistentRead: true }),
      KeyConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
    };
    return collectPage<LedgerEntry>(this.table, input, query.limit);
  }

  async putApiKey(key: ApiKeyRecord, secretHash: string): Promise<void> {
    const secret: SecretItem = { key_id: key.id, org_id: key.org_id, expires_at: null };
    await this.table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: this.table.name, Item: { ...keys.apiKey(key.org_id, key.id), ...key, secret_hashes: [secretHash] } } },
          { Put: { TableName: this.table.name, Item: { ...keys.secret(secretHash), ...secret, key } } },
        ],
      }),
    );
  }

  async findCredential(secretHash: string): Promise<ApiKeyCredential | null> {
    const out = await this.table.doc.send(new GetCommand({ TableName: this.table.name, Key: keys.secret(secretHash), ConsistentRead: true }));
    if (!out.Item) return null;
    const item = out.Item as SecretItem & { key: ApiKeyRecord };
    return { key: item.key, secretExpiresAt: item.expires_at };
  }
}
