import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { MemberRecord, Role } from '../../domain/access/member.js';
import type { MemberStore, MembershipRefusal } from '../../domain/ports/access.js';
import { documentSdk, dynamodbSdk } from '../aws-sdk.js';
import { refusedItems } from './conditions.js';
import { keys } from './keys.js';
import { allItems } from './pages.js';
import { stripKeys, type Table } from './table.js';

const { GetCommand, TransactWriteCommand, UpdateCommand } = documentSdk;
const { ConditionalCheckFailedException, TransactionCanceledException } = dynamodbSdk;

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * The items a new membership writes: the member, its email's claim in the organisation (when it
 * has one) and the pointer from its id to the organisation, each refused if it exists. Order
 * matters: `refusalOf` reads which one refused by position.
 */
export function membershipItems(tableName: string, member: MemberRecord): TransactItem[] {
  const put = (item: Record<string, unknown>): TransactItem => ({
    Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
  });
  return [
    put({ ...keys.memberRef(member.id), org_id: member.org_id }),
    put({ ...keys.member(member.org_id, member.id), ...member }),
    ...(member.email ? [put({ ...keys.memberEmail(member.org_id, member.email), member_id: member.id })] : []),
  ];
}

/** The owner count of a new organisation, whose founder is its one owner. */
export function ownerCountItem(tableName: string, orgId: string, owners: number): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: { ...keys.ownerCount(orgId), owners },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export class DynamoMemberStore implements MemberStore {
  constructor(private readonly table: Table) {}

  async get(orgId: string, memberId: string): Promise<MemberRecord | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.member(orgId, memberId), ConsistentRead: true }),
    );
    return out.Item ? stripKeys<MemberRecord>(out.Item) : null;
  }

  async organizationOf(memberId: string): Promise<string | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.memberRef(memberId), ConsistentRead: true }),
    );
    return out.Item ? String(out.Item.org_id) : null;
  }

  async list(orgId: string): Promise<MemberRecord[]> {
    const { pk, skPrefix } = keys.membersOfOrg(orgId);
    return allItems<MemberRecord>(this.table, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      ConsistentRead: true,
    });
  }

  async add(member: MemberRecord): Promise<MemberRecord | MembershipRefusal> {
    const items = membershipItems(this.table.name, member);
    if (member.role === 'owner') items.push(this.ownersMove(member.org_id, 1));
    const refusal = await this.transact(items, (index) => (index === 0 ? 'user_taken' : 'email_taken'));
    return refusal ?? member;
  }

  async changeRole(member: MemberRecord, role: Role): Promise<MemberRecord | MembershipRefusal> {
    const items: TransactItem[] = [
      {
        Update: {
          TableName: this.table.name,
          Key: keys.member(member.org_id, member.id),
          UpdateExpression: 'SET #role = :role',
          ConditionExpression: '#role = :was',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':role': role, ':was': member.role },
        },
      },
    ];
    if (member.role === 'owner') items.push(this.ownersMove(member.org_id, -1));
    if (role === 'owner') items.push(this.ownersMove(member.org_id, 1));
    const refusal = await this.transact(items, (index) => (index === 0 ? 'changed' : 'last_owner'));
    return refusal ?? { ...member, role };
  }

  async remove(member: MemberRecord): Promise<true | MembershipRefusal> {
    const items: TransactItem[] = [
      {
        Delete: {
          TableName: this.table.name,
          Key: keys.member(member.org_id, member.id),
          ConditionExpression: '#role = :was',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':was': member.role },
        },
      },
      { Delete: { TableName: this.table.name, Key: keys.memberRef(member.id) } },
      ...(member.email
        ? [{ Delete: { TableName: this.table.name, Key: keys.memberEmail(member.org_id, member.email) } }]
        : []),
    ];
    if (member.role === 'owner') items.push(this.ownersMove(member.org_id, -1));
    const refusal = await this.transact(items, (index) => (index === 0 ? 'changed' : 'last_owner'));
    return refusal ?? true;
  }

  async activate(member: MemberRecord): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.member(member.org_id, member.id),
          UpdateExpression: 'SET #status = :active',
          ConditionExpression: '#status = :invited',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':active': 'active', ':invited': 'invited' },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  /**
   * Moves the organisation's owner count; a decrease is refused when it would reach zero, which is
   * the last-owner rule held inside the same transaction as the change that would break it.
   */
  private ownersMove(orgId: string, delta: 1 | -1): TransactItem {
    return {
      Update: {
        TableName: this.table.name,
        Key: keys.ownerCount(orgId),
        UpdateExpression: 'ADD owners :delta',
        ...(delta < 0
          ? { ConditionExpression: 'owners > :one', ExpressionAttributeValues: { ':delta': delta, ':one': 1 } }
          : { ExpressionAttributeValues: { ':delta': delta } }),
      },
    };
  }

  /** null when written; otherwise the refusal of the first refused item, by its position */
  private async transact(
    items: TransactItem[],
    refusalAt: (index: number) => MembershipRefusal,
  ): Promise<MembershipRefusal | null> {
    try {
      await this.table.doc.send(new TransactWriteCommand({ TransactItems: items }));
      return null;
    } catch (error) {
      const refused = refusedItems(error);
      if (refused.length > 0) return refusalAt(refused[0]!.index);
      // another transaction touched one of the items (the owner count, typically): read again
      if (error instanceof TransactionCanceledException) return 'changed';
      throw error;
    }
  }
}
