import { Readable } from 'node:stream';
import { DynamoDBClient, PutItemCommand, TransactWriteItemsCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { nudgeOnJobPuts, putsJobItem } from '../../../local/job-insert-nudge.js';

/**
 * The local runtime wakes its job stream reader after its own writes that put a job's item
 * (local/job-insert-nudge.ts), so an admitted job is read off the stream at once.
 */
const jobPut = { Put: { TableName: 't', Item: { pk: { S: 'JOB#job_1' }, sk: { S: '#' } } } };
const ledgerPut = { Put: { TableName: 't', Item: { pk: { S: 'ORG#org_1' }, sk: { S: 'LEDGER#1' } } } };

/** A client whose every call DynamoDB answers with `status` (no network). */
function clientAnswering(status: number) {
  return new DynamoDBClient({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    requestHandler: {
      handle: async () => ({
        response: {
          statusCode: status,
          headers: { 'content-type': 'application/x-amz-json-1.0' },
          body: Readable.from([
            status === 200 ? '{}' : '{"__type":"com.amazonaws.dynamodb.v20120810#ValidationException","message":"no"}',
          ]),
        },
      }),
    },
  });
}

describe('the job stream nudge', () => {
  it('sees a job item put alone, in a transaction or in a batch, in the wire and the document form', () => {
    expect(putsJobItem('TransactWriteItemsCommand', { TransactItems: [ledgerPut, jobPut] })).toBe(true);
    expect(putsJobItem('PutItemCommand', { Item: { pk: 'JOB#job_1', sk: '#' } })).toBe(true);
    expect(
      putsJobItem('BatchWriteItemCommand', { RequestItems: { t: [{ PutRequest: { Item: jobPut.Put.Item } }] } }),
    ).toBe(true);
  });

  it('sees no job insert in another item’s put, an update or a read', () => {
    expect(putsJobItem('TransactWriteItemsCommand', { TransactItems: [ledgerPut] })).toBe(false);
    expect(putsJobItem('UpdateItemCommand', { Key: { pk: { S: 'JOB#job_1' }, sk: { S: '#' } } })).toBe(false);
    expect(putsJobItem('GetItemCommand', { Key: { pk: { S: 'JOB#job_1' }, sk: { S: '#' } } })).toBe(false);
  });

  it('wakes the reader after a client’s successful put of a job item, not after a refused one or another write', async () => {
    let nudges = 0;
    const answering = clientAnswering(200);
    nudgeOnJobPuts(answering, () => {
      nudges += 1;
    });
    await answering.send(new TransactWriteItemsCommand({ TransactItems: [jobPut] }));
    expect(nudges).toBe(1);
    await answering.send(new PutItemCommand(ledgerPut.Put));
    await answering.send(
      new UpdateItemCommand({ TableName: 't', Key: jobPut.Put.Item, UpdateExpression: 'SET a = :a' }),
    );
    expect(nudges).toBe(1);

    const refusing = clientAnswering(400);
    nudgeOnJobPuts(refusing, () => {
      nudges += 1;
    });
    await expect(refusing.send(new PutItemCommand(jobPut.Put))).rejects.toThrow();
    expect(nudges).toBe(1);
  });
});
