import '../lambdas/local/quiet-warnings.js';
import { startDynamoDbLocal } from '../lambdas/local/stand-ins/dynamodb-local.js';
import { CreateTableCommand, DynamoDBClient, TransactWriteItemsCommand, PutItemCommand, UpdateItemCommand, GetItemCommand } from '@aws-sdk/client-dynamodb';
const ddb = await startDynamoDbLocal({ dataDir: '/tmp/tx-ddb-' + Date.now() });
const client = new DynamoDBClient({ endpoint: ddb.endpoint, region: 'us-east-1', credentials: { accessKeyId: 't', secretAccessKey: 't' } });
const TableName = 'txbench';
await client.send(new CreateTableCommand({ TableName, BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }] }));
await client.send(new PutItemCommand({ TableName, Item: { pk: { S: 'KEY' }, x: { S: 'y' } } }));
let n = 0;
const base = () => [
  { Put: { TableName, Item: { pk: { S: `JOB#${++n}` }, body: { S: 'j'.repeat(900) } }, ConditionExpression: 'attribute_not_exists(pk)' } },
  { Update: { TableName, Key: { pk: { S: 'BALANCE' } }, UpdateExpression: 'ADD balance :d', ExpressionAttributeValues: { ':d': { N: '-1' } } } },
  { Put: { TableName, Item: { pk: { S: `LEDGER#${n}` }, body: { S: 'l'.repeat(200) } } } },
  { Update: { TableName, Key: { pk: { S: 'USAGE' } }, UpdateExpression: 'ADD requests :one', ExpressionAttributeValues: { ':one': { N: '1' } } } },
];
const extra = () => [
  { ConditionCheck: { TableName, Key: { pk: { S: 'KEY' } }, ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked)' } },
  { Update: { TableName, Key: { pk: { S: 'RL' } }, UpdateExpression: 'ADD hits :one', ConditionExpression: 'attribute_not_exists(hits) OR hits < :lim', ExpressionAttributeValues: { ':one': { N: '1' }, ':lim': { N: '1000000' } } } },
];
async function time(label: string, f: () => Promise<unknown>) {
  const t: number[] = [];
  for (let i = 0; i < 300; i++) { const t0 = performance.now(); await f(); t.push(performance.now() - t0); }
  t.sort((a, b) => a - b); console.log(label.padEnd(20), t[150]!.toFixed(2));
}
for (let r = 0; r < 2; r++) {
await time('tx4', () => client.send(new TransactWriteItemsCommand({ TransactItems: base() as any })));
await time('tx6', () => client.send(new TransactWriteItemsCommand({ TransactItems: [...base(), ...extra()] as any })));
await time('tx5 (rl)', () => client.send(new TransactWriteItemsCommand({ TransactItems: [...base(), extra()[1]] as any })));
await time('get', () => client.send(new GetItemCommand({ TableName, Key: { pk: { S: 'KEY' } }, ConsistentRead: true })));
await time('update', () => client.send(new UpdateItemCommand({ TableName, Key: { pk: { S: 'RL' } }, UpdateExpression: 'ADD hits :one', ExpressionAttributeValues: { ':one': { N: '1' } }, ReturnValues: 'ALL_NEW' })));
await time('put', () => client.send(new PutItemCommand({ TableName, Item: { pk: { S: `X${++n}` }, body: { S: 'j'.repeat(900) } } })));
}
client.destroy(); await ddb.stop();
