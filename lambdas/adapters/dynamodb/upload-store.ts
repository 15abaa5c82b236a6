import type { UploadRecord, UploadStore } from '../../domain/ports/jobs.js';
import { documentSdk } from '../aws-sdk.js';
import { keys } from './keys.js';
import { stripKeys, type Table } from './table.js';
import { TABLE_DEFINITION } from './table-definition.js';

const { GetCommand, PutCommand } = documentSdk;

/** Upload references; TTL only tidies up, expiry is enforced on `expires_at`. */
export class DynamoUploadStore implements UploadStore {
  constructor(private readonly table: Table) {}

  async put(upload: UploadRecord): Promise<void> {
    const tidyAfter = upload.expires_at + 7 * 24 * 3600;
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...keys.upload(upload.upload_ref), ...upload, [TABLE_DEFINITION.ttlAttribute]: tidyAfter },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(ref: string): Promise<UploadRecord | null> {
    const out = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.upload(ref), ConsistentRead: true }),
    );
    if (!out.Item) return null;
    const { [TABLE_DEFINITION.ttlAttribute]: _ttl, ...item } = stripKeys<UploadRecord & { ttl?: number }>(out.Item);
    return item;
  }
}
