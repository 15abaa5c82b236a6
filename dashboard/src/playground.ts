import carUrl from '../../samples/car.jpg';
import tireUrl from '../../samples/tire.jpg';
import clusterUrl from '../samples/dashboard-cluster.jpg';
import { AisError, inferenceClient, mgmt, playgroundKey, type Schemas, setPlaygroundKey, unwrap } from './api.js';
import { drawResult } from './draw.js';
import { code, escapeHtml, on, statusBadge } from './html.js';
import type { Render } from './page.js';

type Entry = Schemas['CatalogueEntry'];

const KEY_LIFETIME_SECONDS = 3600;
/** `file` is the path from the repository's root, so the `curl` shown runs as it is there. */
const SAMPLES = [
  { id: 'car', url: carUrl, file: 'samples/car.jpg', label: 'Car, front, with a plate' },
  { id: 'tire', url: tireUrl, file: 'samples/tire.jpg', label: 'Tire sidewall' },
  {
    id: 'dashboard-cluster',
    url: clusterUrl,
    file: 'dashboard/samples/dashboard-cluster.jpg',
    label: 'Instrument cluster',
  },
];
/** Parameters that show an endpoint at its best, prefilled (any may be edited). */
const EXAMPLE_PARAMS: Record<string, Record<string, unknown>> = {
  'plate.read': { country: 'DE', return_crops: true },
  'vehicle.segment': { output: 'both' },
  'parts.segment': { output: 'both' },
  'pricing.vehicle': { make: 'Volkswagen', model: 'Golf', year: 2021, mileage_km: 48000, country: 'DE' },
  'pricing.repair': {
    damages: [{ part: 'front_bumper', type: 'scratch', severity: 'minor' }],
    parts: [{ part: 'left_headlight', action: 'replace' }],
    country: 'DE',
  },
};
/** Inputs the page can send as multipart from the browser; refs-only endpoints need an upload, which is for the API. */
const PLAYABLE_INPUTS = new Set(['image', 'document', 'json', 'images']);

const sampleFor = (slug: string) =>
  slug.startsWith('tire.') ? 'tire' : slug === 'dashboard.read' ? 'dashboard-cluster' : 'car';

/** The `curl` that does what the form would do, the key left as a variable. */
export function curlFor(entry: Entry, scenario: string, params: Record<string, unknown>, filename: string): string {
  const lines = [`curl -X POST "${location.origin}/v1/${entry.slug}"`, '  -H "Authorization: Bearer $AIS_TEST_KEY"'];
  if (scenario) lines.push(`  -H "X-Svc-Test-Scenario: ${scenario}"`);
  if (entry.input_kind === 'json') {
    lines.push("  -H 'Content-Type: application/json'", `  -d '${JSON.stringify(params)}'`);
  } else {
    lines.push(`  -F ${entry.input_kind === 'images' ? 'images' : 'image'}=@${filename}`);
    for (const [name, value] of Object.entries(params))
      lines.push(`  -F ${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return lines.join(' \\\n');
}

/**
 * Run an endpoint in test mode and see the drawn result. The page needs a test key: it creates a
 * short-lived one (an hour, `expires_in_seconds`, admins and owners) or takes one pasted in. The
 * key stays in this tab's sessionStorage and is sent only to this origin's /v1.
 */
export const playground: Render = async (app) => {
  const key = playgroundKey();
  app.innerHTML = `<h1>Playground</h1>
  <p class="muted">Runs an endpoint with a test key: sandbox results, test credits, nothing billed.</p>
  <section class="panel" id="key-step">
    ${
      key
        ? `<p>Test key ${code(`${key.slice(0, 12)}…`)} in use in this tab. <button type="button" class="link" id="forget-key">Use another</button></p>`
        : `<p>The playground runs jobs with a <strong>test key</strong>. Create one that stops working after an hour, or paste one of yours (kept in this tab only).</p>
    <div class="row"><button type="button" id="create-key">Create a 1-hour test key</button>
    <form id="paste-key" class="inline"><label>or paste <input name="key" placeholder="chk_test_…" pattern="chk_test_.+" required></label><button>Use it</button></form></div>`
    }
    <div id="key-error"></div>
  </section>
  <div id="runner"></div>`;
  on(app, '#forget-key', 'click', async () => {
    setPlaygroundKey(null);
    await playground(app, {});
  });
  on(app, '#create-key', 'click', async () => {
    try {
      const created = await unwrap(
        mgmt.POST('/mgmt/v1/api-keys', {
          body: { name: 'Playground (1 hour)', livemode: false, expires_in_seconds: KEY_LIFETIME_SECONDS },
        }),
      );
      setPlaygroundKey(created.secret);
      await playground(app, {});
    } catch (error) {
      app.querySelector('#key-error')!.innerHTML =
        `<div class="error">${escapeHtml(error instanceof AisError && error.status === 403 ? 'Creating keys takes the admin or owner role: paste a test key instead.' : String(error))}</div>`;
    }
  });
  on(app, '#paste-key', 'submit', async (form, event) => {
    event.preventDefault();
    setPlaygroundKey(String(new FormData(form as HTMLFormElement).get('key')).trim());
    await playground(app, {});
  });
  if (key) await runner(app.querySelector<HTMLElement>('#runner')!, key, app);
};

async function runner(host: HTMLElement, key: string, app: HTMLElement): Promise<void> {
  const client = inferenceClient(key);
  let catalogue: Entry[];
  try {
    catalogue = (await unwrap(client.api.GET('/v1/endpoints'))).data.filter(
      (entry) => entry.availability === 'available' && PLAYABLE_INPUTS.has(entry.input_kind),
    );
  } catch (error) {
    if (error instanceof AisError && error.status === 401) {
      setPlaygroundKey(null);
      await playground(app, {});
      app.querySelector('#key-error')!.innerHTML =
        '<div class="error">That key no longer works (expired or revoked): create or paste another.</div>';
      return;
    }
    throw error;
  }
  const chosen = new URLSearchParams(location.search).get('endpoint') ?? 'plate.read';
  host.innerHTML = `<form id="run-form" class="panel play">
    <label>Endpoint <select name="endpoint" id="endpoint">${catalogue
      .map(
        (entry) =>
          `<option value="${entry.slug}" ${entry.slug === chosen ? 'selected' : ''}>${escapeHtml(entry.slug)} · ${escapeHtml(entry.name)} · ${escapeHtml(entry.price_display)}</option>`,
      )
      .join('')}</select></label>
    <fieldset id="input-choice"><legend>Image</legend>
      ${SAMPLES.map((sample) => `<label class="sample"><input type="radio" name="sample" value="${sample.id}"><img src="${sample.url}" alt="${escapeHtml(sample.label)}"><span>${escapeHtml(sample.label)}</span></label>`).join('')}
      <label class="sample upload"><input type="radio" name="sample" value="upload"><span>Your own</span><input type="file" name="file" accept="image/jpeg,image/png,image/webp,application/pdf"></label>
    </fieldset>
    <label>Scenario <select name="scenario" id="scenario"></select></label>
    <label>Parameters (JSON) <textarea name="params" id="params" rows="3" spellcheck="false"></textarea></label>
    <div class="row"><button id="run">Run</button><span id="run-status" class="muted"></span></div>
  </form>
  <div id="run-result"></div>
  <section class="panel"><h2>The same with curl</h2><pre id="curl" class="wrap"></pre><button type="button" id="copy-curl">Copy</button></section>`;
  const form = host.querySelector<HTMLFormElement>('#run-form')!;
  const entryOf = () => catalogue.find((entry) => entry.slug === form.endpoint.value)!;
  const params = (): Record<string, unknown> => {
    const text = (form.elements.namedItem('params') as HTMLTextAreaElement).value.trim();
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  const sampleChoice = () => (form.elements.namedItem('sample') as RadioNodeList).value;
  const upload = () => (form.elements.namedItem('file') as HTMLInputElement).files?.[0] ?? null;
  const filename = () =>
    sampleChoice() === 'upload'
      ? (upload()?.name ?? 'your-image.jpg')
      : (SAMPLES.find((s) => s.id === sampleChoice())?.file ?? 'samples/car.jpg');
  const refreshCurl = () => {
    let shown: Record<string, unknown> = {};
    try {
      shown = params();
    } catch {
      shown = {};
    }
    host.querySelector('#curl')!.textContent = curlFor(
      entryOf(),
      (form.elements.namedItem('scenario') as HTMLSelectElement).value,
      shown,
      filename(),
    );
  };
  const choose = () => {
    const entry = entryOf();
    (host.querySelector('#scenario') as HTMLSelectElement).innerHTML =
      `<option value="">none: a normal run</option>${entry.scenarios.map((s) => `<option>${escapeHtml(s)}</option>`).join('')}`;
    (form.elements.namedItem('params') as HTMLTextAreaElement).value = EXAMPLE_PARAMS[entry.slug]
      ? JSON.stringify(EXAMPLE_PARAMS[entry.slug])
      : '';
    host.querySelector('#input-choice')!.classList.toggle('hidden', entry.input_kind === 'json');
    const sample = form.querySelector<HTMLInputElement>(`input[name=sample][value="${sampleFor(entry.slug)}"]`)!;
    sample.checked = true;
    refreshCurl();
  };
  form.endpoint.addEventListener('change', choose);
  form.addEventListener('input', refreshCurl);
  form.addEventListener('change', (event) => {
    if ((event.target as HTMLElement).getAttribute('name') === 'file')
      form.querySelector<HTMLInputElement>('input[name=sample][value=upload]')!.checked = true;
    refreshCurl();
  });
  host
    .querySelector('#copy-curl')!
    .addEventListener(
      'click',
      () => void navigator.clipboard?.writeText(host.querySelector('#curl')!.textContent ?? '').catch(() => undefined),
    );
  choose();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run(host, client, entryOf(), form, params, sampleChoice, upload);
  });
}

/** The picture as a `data:` address: the page's policy allows `data:` images (not `blob:`). */
function dataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

async function run(
  host: HTMLElement,
  client: ReturnType<typeof inferenceClient>,
  entry: Entry,
  form: HTMLFormElement,
  params: () => Record<string, unknown>,
  sampleChoice: () => string,
  upload: () => File | null,
): Promise<void> {
  const status = host.querySelector<HTMLElement>('#run-status')!;
  const out = host.querySelector<HTMLElement>('#run-result')!;
  const button = form.querySelector<HTMLButtonElement>('#run')!;
  let values: Record<string, unknown>;
  try {
    values = params();
  } catch {
    status.textContent = 'The parameters are not valid JSON.';
    return;
  }
  button.disabled = true;
  out.innerHTML = '';
  try {
    const scenario = (form.elements.namedItem('scenario') as HTMLSelectElement).value;
    let picture: Blob | null = null;
    let name = 'input';
    // a sample is drawn from its own address (this origin); an upload from a blob: address of the file
    let pictureUrl: string | null = null;
    if (entry.input_kind !== 'json') {
      const own = sampleChoice() === 'upload' ? upload() : null;
      if (sampleChoice() === 'upload' && !own) throw new Error('Choose a file to upload, or a sample.');
      const sample = SAMPLES.find((s) => s.id === sampleChoice()) ?? SAMPLES[0]!;
      picture = own ?? (await (await fetch(sample.url)).blob());
      name = own?.name ?? sample.file.split('/').pop()!;
      pictureUrl = own ? await dataUrl(own) : sample.url;
    }
    status.textContent = 'Sending…';
    const fields = Object.fromEntries(
      Object.entries(values).map(([k, v]) => [
        k,
        typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean),
      ]),
    );
    const admitted = (await client.createJob(entry.slug as never, {
      ...(picture
        ? {
            files: {
              [entry.input_kind === 'images' ? 'images' : 'image']: new File([picture], name, {
                type: picture.type || 'image/jpeg',
              }),
            },
            fields,
          }
        : { json: values }),
      ...(scenario ? { scenario } : {}),
    })) as Schemas['Job'];
    status.innerHTML = `${code(admitted.id)} ${statusBadge(admitted.status)} waiting…`;
    const job = await client.waitForJob(admitted.id, { maxDelayMs: 2000 });
    status.innerHTML = `${code(job.id)} ${statusBadge(job.status)} <a href="/dashboard/jobs/${job.id}" data-link id="open-job">open the job</a>`;
    if (job.error)
      out.innerHTML = `<div class="error" id="play-error"><a href="/docs/errors/${encodeURIComponent(job.error.code)}">${escapeHtml(job.error.code)}</a>: ${escapeHtml(job.error.message)}</div>`;
    if (job.result) {
      await drawResult(
        out,
        entry.slug,
        job.result,
        picture ? [{ index: 0, url: pictureUrl, content_type: picture.type || 'image/jpeg', filename: name }] : [],
      );
      out.insertAdjacentHTML('afterbegin', `<h2>Result</h2>`);
    }
  } catch (error) {
    status.textContent = '';
    out.innerHTML = `<div class="error" id="play-error">${escapeHtml(error instanceof AisError ? `${error.code}: ${error.message}` : String(error instanceof Error ? error.message : error))}</div>`;
  } finally {
    button.disabled = false;
  }
}
