import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROLES } from '../lambdas/domain/access/member.js';
import { isRole } from '../lambdas/domain/access/members.js';
import { DASHBOARD_TOKEN_SECONDS, readSigningKey, SIGNING_KEY_FILENAME, signDashboardToken } from './local-issuer.js';
import { CREDENTIALS_FILENAME, LOCAL_DIR, namedRuntimeHome } from './runtime-homes.js';

/**
 * `npm run token -- --role owner [--org org_…] [--ttl 900] [--link]`: prints a fresh dashboard
 * token, signed with the key `npm start` publishes at /.well-known/jwks.json; with `--link`, the
 * sign-in link that carries it (`<base>/dashboard/login#token=<jwt>`: the fragment never reaches
 * a server), ready to open.
 */

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      role: { type: 'string', default: 'owner' },
      org: { type: 'string' },
      ttl: { type: 'string' },
      link: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(
      `usage: npm run token -- --role ${ROLES.join('|')} [--org org_…] [--ttl seconds, at most ${DASHBOARD_TOKEN_SECONDS}] [--link: print a dashboard sign-in link]`,
    );
    return;
  }
  if (!isRole(values.role)) throw new Error(`--role must be one of ${ROLES.join(', ')}`);
  // the runtime .local/credentials.json names: its own key signs, its issuer is its address
  const home = namedRuntimeHome();
  const credentialsFile = join(LOCAL_DIR, CREDENTIALS_FILENAME);
  const keyFile = home && join(home, SIGNING_KEY_FILENAME);
  if (!keyFile || !existsSync(keyFile))
    throw new Error(
      'no local issuer yet: run `npm start` first (it creates .local/credentials.json and the signing key)',
    );
  const credentials = JSON.parse(readFileSync(credentialsFile, 'utf8')) as { base_url: string; org_id: string };
  const lifetimeSeconds = values.ttl === undefined ? DASHBOARD_TOKEN_SECONDS : Number(values.ttl);
  if (!Number.isInteger(lifetimeSeconds) || lifetimeSeconds < 1 || lifetimeSeconds > DASHBOARD_TOKEN_SECONDS)
    throw new Error(`--ttl must be 1 to ${DASHBOARD_TOKEN_SECONDS} seconds`);
  const token = await signDashboardToken(await readSigningKey(keyFile), {
    issuer: credentials.base_url,
    orgId: values.org ?? credentials.org_id,
    role: values.role,
    lifetimeSeconds,
  });
  console.log(values.link ? `${credentials.base_url}/dashboard/login#token=${token}` : token);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
