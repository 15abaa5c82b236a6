import { Readable } from 'node:stream';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { type DocumentTransactItem, HotPathCalls } from '../../../../lambdas/adapters/dynamodb/hot-path-calls.js';

/** Records each request body DynamoDB would receive and answers with `answer`. */
function recordingClient(answer: object, cacheMiddleware: boolean): { client: DynamoDBClient; bodies: unknown[] } {
  const bodies: unknown[] = [];
  const requestHandler = {
    // the SDK hands a JSON body over as bytes: decoded as bytes, never through its string shim (which warns)
    handle: async (request: { body: string | Uint8Array }) => {
      bodies.push(JSON.parse(typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body)));
      return {
        response: {
          statusCode: 200,
          headers: { 'content-type': 'application/x-amz-json-1.0' },
          body: Readable.from([Buffer.from(JSON.stringify(answer))]),
        },
      };
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs: () => ({}),
  };
  const client = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:1',
    credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    cacheMiddleware,
    requestHandler: requestHandler as never,
  });
  return { client, bodies };
}

const documentClient = (client: DynamoDBClient) =>
  DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

const ITEMS: DocumentTransactItem[] = [
  {
    Put: {
      TableName: 't',
      Item: {
        pk: 'JOB#1',
        sk: '#',
        status: 'queued',
        absent: undefined,
        nothing: null,
        count: 3,
        ratio: 0.25,
        live: false,
        tags: ['a', 'b'],
        nested: { deep: { value: 1, gone: undefined } },
        empty: {},
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  {
    Update: {
      TableName: 't',
      Key: { pk: 'BAL#o', sk: '#' },
      UpdateExpression: 'ADD amount :d',
      ConditionExpression: 'amount >= :n',
      ExpressionAttributeValues: { ':d': -5, ':n': 5 },
    },
  },
  {
    Update: {
      TableName: 't',
      Key: { pk: 'U#o', sk: '#' },
      UpdateExpression: 'SET #f = :v',
      ExpressionAttributeNames: { '#f': 'field' },
      ExpressionAttributeValues: { ':v': { list: [1, 'two', null] } },
    },
  },
  { Delete: { TableName: 't', Key: { pk: 'D#o', sk: '#' }, ConditionExpression: 'attribute_exists(pk)' } },
  {
    ConditionCheck: {
      TableName: 't',
      Key: { pk: 'S#h', sk: '#' },
      ConditionExpression: 'attribute_type(k, :null)',
      ExpressionAttributeValues: { ':null': 'NULL' },
    },
  },
];

describe('HotPathCalls: the document client’s input and output, on a client that caches its middleware', () => {
  it('a transaction reaches DynamoDB exactly as the document client would send it, call after call', async () => {
    const viaDocument = recordingClient({}, false);
    const viaHotPath = recordingClient({}, true);
    const hot = new HotPathCalls(viaHotPath.client);
    const warned = vi.spyOn(console, 'warn');
    for (const items of [ITEMS, ITEMS.slice(1, 3), ITEMS]) {
      await documentClient(viaDocument.client).send(new TransactWriteCommand({ TransactItems: items }));
      await hot.transactWrite(items);
    }
    // neither path trips the SDK's deprecation warning for a body read as a string
    expect(warned).not.toHaveBeenCalled();
    warned.mockRestore();
    // each call still carries a token of its own: the cached stack does not replay the first one
    const tokens = (bodies: unknown[]) =>
      bodies.map((body) => (body as { ClientRequestToken: string }).ClientRequestToken);
    expect(new Set(tokens(viaHotPath.bodies)).size).toBe(3);
    const withoutToken = (bodies: unknown[]) =>
      (bodies as Array<Record<string, unknown>>).map(({ ClientRequestToken: _token, ...rest }) => rest);
    expect(withoutToken(viaHotPath.bodies)).toHaveLength(3);
    expect(withoutToken(viaHotPath.bodies)).toEqual(withoutToken(viaDocument.bodies));
  });

  it('a read by key sends what the document client sends and returns the item it would return', async () => {
    const stored = {
      Item: {
        pk: { S: 'JOB#1' },
        count: { N: '3' },
        nothing: { NULL: true },
        nested: { M: { list: { L: [{ S: 'a' }, { N: '2.5' }] } } },
      },
    };
    const viaDocument = recordingClient(stored, false);
    const viaHotPath = recordingClient(stored, true);
    const input = {
      TableName: 't',
      Key: { pk: 'JOB#1', sk: '#' },
      ConsistentRead: true,
      ProjectionExpression: 'pk, #c',
    };
    const expected = (await documentClient(viaDocument.client).send(new GetCommand(input))).Item;
    const item = await new HotPathCalls(viaHotPath.client).getItem(input);
    expect(item).toEqual({ pk: 'JOB#1', count: 3, nothing: null, nested: { list: ['a', 2.5] } });
    expect(item).toEqual(expected);
    expect(viaHotPath.bodies).toEqual(viaDocument.bodies);
  });

  it('a read of a missing item is undefined', async () => {
    expect(
      await new HotPathCalls(recordingClient({}, true).client).getItem({
        TableName: 't',
        Key: { pk: 'none', sk: '#' },
      }),
    ).toBeUndefined();
  });
});
