import { type PublicOrganization, presentOrganization } from '../../lambdas/domain/access/organization-view.js';
import {
  createApiKey,
  createOrganization,
  SIGN_UP_CREDITS,
  setStorageRetention,
} from '../../lambdas/domain/access/organizations.js';
import { modeOf } from '../../lambdas/domain/kernel/mode.js';
import { adjustCredits } from '../../lambdas/domain/money/credits.js';
import { type PublicLedgerEntry, presentLedgerEntry } from '../../lambdas/domain/money/ledger.js';
import type { Command } from './arguments.js';
import { AdminError } from './errors.js';
import type { Workspace } from './workspace.js';

function unknownOrganization(orgId: string): AdminError {
  return new AdminError('organization_not_found', `No organisation ${orgId} here: list-organizations names them.`);
}

async function requireOrganization(workspace: Workspace, orgId: string): Promise<void> {
  if (!(await workspace.services.accounts.getOrganization(orgId))) throw unknownOrganization(orgId);
}

/**
 * Exactly what a sign-up creates, plus one key per mode: the organisation, its owner and a test
 * balance of 10,000 credits funded through the ledger (live starts at 0), by the API's own domain code.
 */
async function createOrganizationCommand(
  workspace: Workspace,
  command: Extract<Command, { name: 'create-organization' }>,
) {
  const ownerId =
    command.ownerEmail && workspace.registerOwner ? await workspace.registerOwner(command.ownerEmail) : undefined;
  const created = await createOrganization(workspace.services, {
    name: command.orgName,
    plan: command.plan,
    startingCredits: SIGN_UP_CREDITS,
    owner: { email: command.ownerEmail, ...(ownerId ? { id: ownerId } : {}) },
  });
  return {
    org_id: created.organization.id,
    live_key: created.liveKey,
    test_key: created.testKey,
    ...(workspace.signToken ? { owner_jwt: await workspace.signToken(created.owner) } : {}),
  };
}

export async function execute(workspace: Workspace, command: Command): Promise<object> {
  const { services } = workspace;
  switch (command.name) {
    case 'create-organization':
      return createOrganizationCommand(workspace, command);
    case 'create-api-key': {
      await requireOrganization(workspace, command.orgId);
      const { key, secret } = await createApiKey(services, command.orgId, {
        name: command.keyName,
        livemode: command.livemode,
      });
      return { id: key.id, secret };
    }
    case 'grant-credits': {
      const entry = await adjustCredits(services, command.orgId, command.livemode, command.amount, command.reason);
      if (entry === 'no_balance') throw unknownOrganization(command.orgId);
      if (entry === 'insufficient')
        throw new AdminError(
          'insufficient_balance',
          `Taking ${-command.amount} credits would make the ${modeOf(command.livemode)} balance negative.`,
        );
      // the entry as the API presents it, and the reason stored with it (an operator's record, never presented by the API)
      return { ...(presentLedgerEntry(entry) satisfies PublicLedgerEntry), reason: command.reason };
    }
    case 'set-retention': {
      // the next retention pass deletes what is older than the new period (docs/internals/data-retention.md)
      if (!(await setStorageRetention(services, command.orgId, command.days))) throw unknownOrganization(command.orgId);
      return presentOrganization(services, command.orgId);
    }
    case 'list-organizations': {
      const organizations = await services.accounts.listOrganizations();
      const data: PublicOrganization[] = await Promise.all(
        organizations
          .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1))
          .map((organization) => presentOrganization(services, organization.id)),
      );
      return { object: 'list', data };
    }
  }
}
