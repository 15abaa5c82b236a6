import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The two Cognito user pool calls an invitation makes (AdminCreateUser, AdminGetUser), on
 * 127.0.0.1 in Cognito's JSON protocol: users by email, each with a UUID `sub` as Cognito gives.
 */
export interface CognitoDouble {
  endpoint: string;
  /** email → sub of every user in the pool */
  users: Map<string, string>;
  /** the invitations Cognito would have emailed */
  invited: string[];
  stop(): Promise<void>;
}

function answer(response: import('node:http').ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' });
  response.end(JSON.stringify(body));
}

export async function startCognitoDouble(userPoolId: string): Promise<CognitoDouble> {
  const users = new Map<string, string>();
  const invited: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const action = String(request.headers['x-amz-target'] ?? '').split('.')[1];
      const input = JSON.parse(body || '{}') as {
        UserPoolId?: string;
        Username?: string;
        DesiredDeliveryMediums?: string[];
      };
      if (input.UserPoolId !== userPoolId)
        return answer(response, 400, { __type: 'ResourceNotFoundException', message: 'User pool does not exist.' });
      const email = String(input.Username).toLowerCase();
      const attributes = (sub: string) => [
        { Name: 'sub', Value: sub },
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
      ];
      if (action === 'AdminCreateUser') {
        if (users.has(email))
          return answer(response, 400, {
            __type: 'UsernameExistsException',
            message: 'An account with the given email already exists.',
          });
        const sub = randomUUID();
        users.set(email, sub);
        if (input.DesiredDeliveryMediums?.includes('EMAIL')) invited.push(email);
        return answer(response, 200, {
          User: { Username: sub, Attributes: attributes(sub), Enabled: true, UserStatus: 'FORCE_CHANGE_PASSWORD' },
        });
      }
      if (action === 'AdminGetUser') {
        const sub = users.get(email);
        if (!sub) return answer(response, 400, { __type: 'UserNotFoundException', message: 'User does not exist.' });
        return answer(response, 200, {
          Username: sub,
          UserAttributes: attributes(sub),
          Enabled: true,
          UserStatus: 'CONFIRMED',
        });
      }
      return answer(response, 400, { __type: 'InvalidParameterException', message: `not in this double: ${action}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    users,
    invited,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
