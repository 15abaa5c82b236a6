import { parseArgs } from 'node:util';
import { PLANS } from '../../lambdas/domain/access/organizations.js';
import { STORAGE_RETENTION_DAYS } from '../../lambdas/domain/erasure/retention-period.js';
import { AdminError } from './errors.js';

export const COMMANDS = [
  'create-organization',
  'create-api-key',
  'grant-credits',
  'set-retention',
  'list-organizations',
] as const;
export type CommandName = (typeof COMMANDS)[number];

export type Command =
  | { name: 'create-organization'; orgName: string; plan: string; ownerEmail: string | null }
  | { name: 'create-api-key'; orgId: string; livemode: boolean; keyName: string }
  | { name: 'grant-credits'; orgId: string; livemode: boolean; amount: number; reason: string }
  | { name: 'set-retention'; orgId: string; days: number }
  | { name: 'list-organizations' };

/** Where the command works: the running `npm start` (default) or a deployed stack. */
export interface Target {
  stack: string | null;
  region: string | null;
}

export const USAGE = `usage: npm run admin -- <command> [options] [--stack <name> [--region <region>]]
  create-organization --name <name> [--plan ${PLANS.join('|')}] [--owner-email <email>]
  create-api-key --org <org_id> --mode test|live [--name <name>]
  grant-credits --org <org_id> --mode test|live --amount <credits> --reason <text>
  set-retention --org <org_id> --days <${STORAGE_RETENTION_DAYS.min} to ${STORAGE_RETENTION_DAYS.max}>
  list-organizations
Without --stack it works on the data of the running npm start; AWS_ENDPOINT_URL reaches LocalStack.`;

const OPTIONS = {
  name: { type: 'string' },
  plan: { type: 'string' },
  'owner-email': { type: 'string' },
  org: { type: 'string' },
  mode: { type: 'string' },
  amount: { type: 'string' },
  reason: { type: 'string' },
  days: { type: 'string' },
  stack: { type: 'string' },
  region: { type: 'string' },
} as const;

/** Which options each command takes (besides --stack and --region); anything else is refused. */
const ALLOWED: Record<CommandName, readonly (keyof typeof OPTIONS)[]> = {
  'create-organization': ['name', 'plan', 'owner-email'],
  'create-api-key': ['org', 'mode', 'name'],
  'grant-credits': ['org', 'mode', 'amount', 'reason'],
  'set-retention': ['org', 'days'],
  'list-organizations': [],
};

function invalid(message: string): AdminError {
  return new AdminError('invalid_arguments', message);
}

function required(values: Record<string, string | undefined>, option: string): string {
  const value = values[option]?.trim();
  if (!value) throw invalid(`--${option} is required`);
  return value;
}

function mode(values: Record<string, string | undefined>): boolean {
  const value = required(values, 'mode');
  if (value !== 'test' && value !== 'live') throw invalid('--mode must be test or live');
  return value === 'live';
}

function orgId(values: Record<string, string | undefined>): string {
  const value = required(values, 'org');
  if (!/^org_[1-9A-HJ-NP-Za-km-z]{8,32}$/.test(value))
    throw invalid(`--org must be an organisation id (org_…), not ${value}`);
  return value;
}

/** The command and its target, checked before anything is reached. */
export function parseCommand(argv: readonly string[]): { command: Command; target: Target } {
  let parsed: ReturnType<
    typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true; args: string[] }>
  >;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw invalid(`${(error as Error).message}; ${USAGE.split('\n')[0]}`);
  }
  const [name, ...rest] = parsed.positionals;
  if (!name) throw invalid(`no command: one of ${COMMANDS.join(', ')}`);
  if (!(COMMANDS as readonly string[]).includes(name))
    throw invalid(`unknown command ${name}: one of ${COMMANDS.join(', ')}`);
  if (rest.length) throw invalid(`unexpected argument ${rest[0]}`);
  const command = name as CommandName;
  const values = parsed.values as Record<string, string | undefined>;
  const stray = Object.keys(values).find(
    (option) => option !== 'stack' && option !== 'region' && !(ALLOWED[command] as readonly string[]).includes(option),
  );
  if (stray) throw invalid(`${command} takes no --${stray}`);
  if (values.region && !values.stack) throw invalid('--region goes with --stack');
  const target: Target = { stack: values.stack ?? null, region: values.region ?? null };
  switch (command) {
    case 'create-organization': {
      const plan = values.plan ?? PLANS[0];
      if (!(PLANS as readonly string[]).includes(plan)) throw invalid(`--plan must be one of ${PLANS.join(', ')}`);
      const ownerEmail = values['owner-email']?.trim() || null;
      if (ownerEmail !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(ownerEmail))
        throw invalid(`--owner-email is not an email address: ${ownerEmail}`);
      const orgName = required(values, 'name');
      if (orgName.length > 100) throw invalid('--name is at most 100 characters');
      return { command: { name: command, orgName, plan, ownerEmail }, target };
    }
    case 'create-api-key': {
      const livemode = mode(values);
      return {
        command: {
          name: command,
          orgId: orgId(values),
          livemode,
          keyName: values.name?.trim() || `${livemode ? 'Live' : 'Test'} key (admin tool)`,
        },
        target,
      };
    }
    case 'grant-credits': {
      const amount = Number(required(values, 'amount'));
      if (!Number.isSafeInteger(amount) || amount === 0)
        throw invalid('--amount must be a non-zero whole number of credits (negative to take credits back)');
      return {
        command: {
          name: command,
          orgId: orgId(values),
          livemode: mode(values),
          amount,
          reason: required(values, 'reason'),
        },
        target,
      };
    }
    case 'set-retention': {
      const days = Number(required(values, 'days'));
      const { min, max } = STORAGE_RETENTION_DAYS;
      if (!Number.isInteger(days) || days < min || days > max)
        throw invalid(`--days must be a whole number of days from ${min} to ${max}`);
      return { command: { name: command, orgId: orgId(values), days }, target };
    }
    case 'list-organizations':
      return { command: { name: command }, target };
  }
}
