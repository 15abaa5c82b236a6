import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * CloudFormation's DescribeStacks on 127.0.0.1, in its query protocol (form-encoded request, XML
 * answer), for the admin tool's `--stack` path: the real SDK reads outputs and errors from it.
 */
export interface CloudFormationDouble {
  endpoint: string;
  /** the StackName of every DescribeStacks received */
  asked: string[];
  stop(): Promise<void>;
}

const NAMESPACE = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';

function escapeXml(value: string): string {
  return value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function describeStacksXml(name: string, outputs: Record<string, string>): string {
  const members = Object.entries(outputs)
    .map(
      ([key, value]) =>
        `<member><OutputKey>${escapeXml(key)}</OutputKey><OutputValue>${escapeXml(value)}</OutputValue></member>`,
    )
    .join('');
  return `<DescribeStacksResponse xmlns="${NAMESPACE}"><DescribeStacksResult><Stacks><member><StackName>${escapeXml(name)}</StackName><StackId>arn:aws:cloudformation:us-east-1:000000000000:stack/${escapeXml(name)}/1</StackId><CreationTime>2026-01-01T00:00:00Z</CreationTime><StackStatus>CREATE_COMPLETE</StackStatus><Outputs>${members}</Outputs></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>req-1</RequestId></ResponseMetadata></DescribeStacksResponse>`;
}

function validationErrorXml(message: string): string {
  return `<ErrorResponse xmlns="${NAMESPACE}"><Error><Type>Sender</Type><Code>ValidationError</Code><Message>${escapeXml(message)}</Message></Error><RequestId>req-2</RequestId></ErrorResponse>`;
}

/** Answers the stacks it is given by name; any other name is CloudFormation's "does not exist". */
export async function startCloudFormationDouble(
  stacks: Record<string, Record<string, string>>,
): Promise<CloudFormationDouble> {
  const asked: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      const name = form.get('StackName') ?? '';
      asked.push(name);
      const outputs = form.get('Action') === 'DescribeStacks' ? stacks[name] : undefined;
      response.writeHead(outputs ? 200 : 400, { 'Content-Type': 'text/xml' });
      response.end(
        outputs ? describeStacksXml(name, outputs) : validationErrorXml(`Stack with id ${name} does not exist`),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
