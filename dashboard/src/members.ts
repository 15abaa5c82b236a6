import { AisError, mgmt, ROLES, type Schemas, unwrap } from './api.js';
import { escapeHtml, table, when } from './html.js';
import type { Render } from './page.js';

/** `/dashboard/members`: who belongs to the organisation; invite, change a role, remove (after a confirmation). */

type Role = Schemas['Role'];

/** weakest first, so an invitation's default comes first */
function roleOptions(selected: string): string {
  return [...ROLES]
    .reverse()
    .map((role) => `<option value="${role}" ${role === selected ? 'selected' : ''}>${role}</option>`)
    .join('');
}

function statusBadge(member: Schemas['Member']): string {
  return member.status === 'active'
    ? '<span class="badge status-succeeded">active</span>'
    : '<span class="badge status-processing">invited</span>';
}

/**
 * An action on the list; a refusal (403, 409 last_owner) leaves the list as the server has it
 * (every role picker shows the role in effect), with the reason above it.
 */
function act(
  app: HTMLElement,
  selector: string,
  event: string,
  action: (target: HTMLElement, event: Event) => Promise<void>,
): void {
  for (const element of app.querySelectorAll<HTMLElement>(selector)) {
    element.addEventListener(event, (e) => {
      action(element, e).catch(async (error: unknown) => {
        if (error instanceof AisError && error.status === 401) throw error;
        await members(app, {}).catch(() => undefined);
        app.querySelector('#member-error')!.innerHTML =
          `<div class="error">${escapeHtml(error instanceof AisError ? error.message : String(error))}</div>`;
      });
    });
  }
}

export const members: Render = async (app) => {
  const list = (await unwrap(mgmt.GET('/mgmt/v1/members'))).data;
  app.innerHTML = `<h1>Members</h1>
  <p class="muted">Owners and admins invite and change roles; only an owner makes owners, and an organisation keeps at least one. A change holds from the member’s next request.</p>
  <form id="invite" class="panel">
    <h2>Invite</h2>
    <label>Email <input name="email" type="email" placeholder="colleague@example.com" required></label>
    <label>Role <select name="role">${roleOptions('member')}</select></label>
    <button>Invite</button></form>
  <div id="invitation"></div>
  <div id="member-error"></div>
  ${table(
    ['email', 'role', 'status', 'since', 'change or remove'],
    list.map((member) => [
      escapeHtml(member.email ?? '—'),
      `<select class="role" data-id="${escapeHtml(member.id)}" aria-label="role of ${escapeHtml(member.email ?? member.id)}">${roleOptions(member.role)}</select>`,
      statusBadge(member),
      when(member.created),
      `<button type="button" class="change-role" data-id="${escapeHtml(member.id)}">Change role</button> <button type="button" class="remove danger" data-id="${escapeHtml(member.id)}" data-email="${escapeHtml(member.email ?? member.id)}">Remove</button>`,
    ]),
  )}`;
  act(app, '#invite', 'submit', async (form, event) => {
    event.preventDefault();
    const data = new FormData(form as HTMLFormElement);
    const invited = await unwrap(
      mgmt.POST('/mgmt/v1/members', {
        body: { email: String(data.get('email')), role: String(data.get('role')) as Role },
      }),
    );
    await members(app, {});
    // locally the answer carries the sign-in link to pass on; on AWS the user pool emails the invitation
    app.querySelector('#invitation')!.innerHTML = invited.invite_url
      ? `<div class="secret"><strong>Invited ${escapeHtml(invited.email)}</strong>: send them this sign-in link (valid 15 minutes, shown once)<br><code id="invite-url" class="id">${escapeHtml(invited.invite_url)}</code></div>`
      : `<div class="secret"><strong>Invited ${escapeHtml(invited.email)}</strong>: they receive an email with a temporary password.</div>`;
  });
  act(app, '.change-role', 'click', async (button) => {
    const role = app.querySelector<HTMLSelectElement>(`select.role[data-id="${button.dataset.id}"]`)!.value as Role;
    await unwrap(mgmt.POST('/mgmt/v1/members/{id}', { params: { path: { id: button.dataset.id! } }, body: { role } }));
    await members(app, {});
  });
  act(app, '.remove', 'click', async (button) => {
    // their tokens stop working on their very next request
    if (!confirm(`Remove ${button.dataset.email}? They lose access at once.`)) return;
    await unwrap(mgmt.DELETE('/mgmt/v1/members/{id}', { params: { path: { id: button.dataset.id! } } }));
    await members(app, {});
  });
};
