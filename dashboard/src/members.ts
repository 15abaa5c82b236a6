import { ApiFailure, mgmt } from './api.js';
import { escapeHtml, table, when } from './html.js';

/** `/dashboard/members`: who belongs to the organisation; invite, change a role, remove (after a confirmation). */

const ROLES = ['member', 'admin', 'owner'] as const;

interface Member {
  id: string;
  email: string | null;
  role: (typeof ROLES)[number];
  status: 'invited' | 'active';
  created: number;
}

function roleOptions(selected: string): string {
  return ROLES.map((role) => `<option value="${role}" ${role === selected ? 'selected' : ''}>${role}</option>`).join('');
}

/** An action's refusal (403, 409 last_owner…) is shown above the list. */
function showError(app: HTMLElement, error: unknown): void {
  const message = error instanceof ApiFailure && error.body.error ? error.body.error.message : String(error);
  app.querySelector('#member-error')!.innerHTML = `<div class="error">${escapeHtml(message)}</div>`;
}

/** A refused action leaves the list as the server has it (a role picker shows the role in effect), with the reason above it. */
function on(app: HTMLElement, selector: string, event: string, handler: (target: HTMLElement, event: Event) => Promise<void>): void {
  for (const element of app.querySelectorAll<HTMLElement>(selector)) {
    element.addEventListener(event, (e) => {
      handler(element, e).catch(async (error: unknown) => {
        await members(app).catch(() => undefined);
        showError(app, error);
      });
    });
  }
}

export async function members(app: HTMLElement): Promise<void> {
  const list = (await mgmt<{ data: Member[] }>('GET', '/members')).data;
  app.innerHTML = `<h1>Members</h1>
  <p class="muted">Owners and admins invite and change roles; only an owner makes owners. A change holds from the member’s next request.</p>
  <form id="invite"><input name="email" type="email" placeholder="colleague@example.com" required>
    <select name="role">${roleOptions('member')}</select><button>Invite</button></form>
  <div id="invitation"></div>
  <div id="member-error"></div>
  ${table(
    ['email', 'role', 'status', 'since', ''],
    list.map((member) => [
      escapeHtml(member.email ?? '—'),
      `<select class="role" data-id="${escapeHtml(member.id)}">${roleOptions(member.role)}</select>`,
      escapeHtml(member.status),
      when(member.created),
      `<button class="change-role" data-id="${escapeHtml(member.id)}">Change role</button> <button class="remove" data-id="${escapeHtml(member.id)}" data-email="${escapeHtml(member.email ?? member.id)}">Remove</button>`,
    ]),
  )}`;
  on(app, '#invite', 'submit', async (form, event) => {
    event.preventDefault();
    const data = new FormData(form as HTMLFormElement);
    const invited = await mgmt<Member & { invite_url?: string }>('POST', '/members', { email: String(data.get('email')), role: String(data.get('role')) });
    await members(app);
    // locally the answer carries the sign-in link to pass on; on AWS the user pool emails the invitation
    app.querySelector('#invitation')!.innerHTML = invited.invite_url
      ? `<div class="secret"><strong>Invited ${escapeHtml(invited.email)}</strong>: send them this sign-in link (valid 15 minutes, shown once)<br><code id="invite-url">${escapeHtml(invited.invite_url)}</code></div>`
      : `<div class="secret"><strong>Invited ${escapeHtml(invited.email)}</strong>: they receive an email with a temporary password.</div>`;
  });
  on(app, '.change-role', 'click', async (button) => {
    const role = app.querySelector<HTMLSelectElement>(`select.role[data-id="${button.dataset.id}"]`)!.value;
    await mgmt('POST', `/members/${button.dataset.id}`, { role });
    await members(app);
  });
  on(app, '.remove', 'click', async (button) => {
    // their tokens stop working on their very next request
    if (!confirm(`Remove ${button.dataset.email}? They lose access at once.`)) return;
    await mgmt('DELETE', `/members/${button.dataset.id}`);
    await members(app);
  });
}
