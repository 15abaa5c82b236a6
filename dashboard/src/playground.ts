import carUrl from '../../samples/car.jpg';
import damagedUrl from '../../samples/damaged.jpg';
import engineUrl from '../../samples/engine.wav';
import registrationUrl from '../../samples/registration.jpg';
import tireUrl from '../../samples/tire.jpg';
import vinUrl from '../../samples/vin.jpg';
import walkaroundUrl from '../../samples/walkaround.mp4';
import clusterUrl from '../samples/dashboard-cluster.jpg';
import { AisError, inferenceClient, mgmt, playgroundKey, type Schemas, setPlaygroundKey, unwrap } from './api.js';
import { drawResult, type InputPicture } from './draw.js';
import { code, escapeHtml, on, statusBadge } from './html.js';
import type { Render } from './page.js';

type Entry = Schemas['CatalogueEntry'];
type MediaKind = 'image' | 'audio' | 'video';

interface Sample {
  id: string;
  url: string;
  /** the path from the repository's root, so the command shown runs as it is there */
  file: string;
  type: string;
  kind: MediaKind;
  label: string;
}

const KEY_LIFETIME_SECONDS = 3600;
/** The repository's samples: test mode answers each with the truth of the picture (docs/test-fixtures.md). */
const SAMPLES: readonly Sample[] = [
  {
    id: 'car',
    url: carUrl,
    file: 'samples/car.jpg',
    type: 'image/jpeg',
    kind: 'image',
    label: 'Car, front, with a plate',
  },
  {
    id: 'damaged',
    url: damagedUrl,
    file: 'samples/damaged.jpg',
    type: 'image/jpeg',
    kind: 'image',
    label: 'Car, right side, damaged',
  },
  { id: 'tire', url: tireUrl, file: 'samples/tire.jpg', type: 'image/jpeg', kind: 'image', label: 'Tire sidewall' },
  { id: 'vin', url: vinUrl, file: 'samples/vin.jpg', type: 'image/jpeg', kind: 'image', label: 'VIN label' },
  {
    id: 'registration',
    url: registrationUrl,
    file: 'samples/registration.jpg',
    type: 'image/jpeg',
    kind: 'image',
    label: 'Registration document',
  },
  {
    id: 'dashboard-cluster',
    url: clusterUrl,
    file: 'dashboard/samples/dashboard-cluster.jpg',
    type: 'image/jpeg',
    kind: 'image',
    label: 'Instrument cluster',
  },
  {
    id: 'engine',
    url: engineUrl,
    file: 'samples/engine.wav',
    type: 'audio/wav',
    kind: 'audio',
    label: 'Engine idling, 6 s',
  },
  {
    id: 'walkaround',
    url: walkaroundUrl,
    file: 'samples/walkaround.mp4',
    type: 'video/mp4',
    kind: 'video',
    label: 'Walk-around video, 6 s',
  },
];
const sample = (id: string) => SAMPLES.find((candidate) => candidate.id === id)!;

/** The sample each endpoint is shown with (the one whose truth it reads); the car where none is named. */
const SAMPLE_FOR: Record<string, string> = {
  'tire.read': 'tire',
  'tire.detect': 'tire',
  'dashboard.read': 'dashboard-cluster',
  'vin.read': 'vin',
  'document.read': 'registration',
  'damage.detect': 'damaged',
  'damage.severity': 'damaged',
  'engine.detect': 'engine',
  'video.onboard': 'walkaround',
};
/** The inputs of the multi-input endpoints: the car seen from the front and the side (a 360 takes eight). */
const SAMPLE_SETS: Record<string, string[]> = {
  'render.background': ['car', 'damaged'],
  'render.video': ['car', 'damaged'],
  'render.360': ['car', 'damaged', 'car', 'damaged', 'car', 'damaged', 'car', 'damaged'],
  'viewer.hotspots': ['car', 'damaged', 'car', 'damaged', 'car', 'damaged', 'car', 'damaged'],
  inspections: ['walkaround', 'car', 'damaged'],
};
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
/** What a file chooser offers for each input kind (the media types the endpoints take, docs/uploads.md). */
const ACCEPT: Record<Exclude<Entry['input_kind'], 'json'>, string> = {
  image: 'image/jpeg,image/png,image/webp',
  images: 'image/jpeg,image/png,image/webp,video/mp4,video/quicktime',
  document: 'image/jpeg,image/png,image/webp,application/pdf',
  audio: 'audio/wav,audio/x-wav,audio/mpeg,audio/mp4,audio/ogg,audio/webm,audio/flac',
  video: 'video/mp4,video/quicktime,video/webm',
};
/** The multipart field that carries an input kind's files. */
const FILE_FIELD: Record<Exclude<Entry['input_kind'], 'json'>, string> = {
  image: 'image',
  document: 'image',
  images: 'images',
  audio: 'audio',
  video: 'video',
};

/** The samples an endpoint's run starts with. */
export function samplesFor(entry: Entry): Sample[] {
  if (entry.input_kind === 'json') return [];
  return (SAMPLE_SETS[entry.slug] ?? [SAMPLE_FOR[entry.slug] ?? 'car']).map(sample);
}

/** A file the command sends: its path as typed in the shell, and its media type. */
interface CommandFile {
  path: string;
  type: string;
}

/** Inside a single-quoted shell word: a quote closes, is escaped and reopens. */
const singleQuoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
/** A path as one shell word: as it is when it is plain, else quoted. */
const shellWord = (text: string) => (/^[\w./-]+$/.test(text) ? text : singleQuoted(text));

/**
 * The commands that do what the form does, the key left as a variable: one multipart `curl` where
 * the endpoint takes multipart, the JSON body where it takes no file, and for endpoints that take
 * JSON only (catalogue `encodings`), each file uploaded first (`POST /v1/uploads`, then a `PUT` of
 * its bytes to the URL returned) and the call naming the references.
 */
export function commandFor(
  entry: Entry,
  scenario: string,
  params: Record<string, unknown>,
  files: readonly CommandFile[],
): string {
  const call = [`curl -X POST "${location.origin}/v1/${entry.slug}"`, '  -H "Authorization: Bearer $AIS_TEST_KEY"'];
  if (scenario) call.push(`  -H "X-Svc-Test-Scenario: ${scenario}"`);
  if (entry.input_kind === 'json') {
    call.push("  -H 'Content-Type: application/json'", `  -d ${singleQuoted(JSON.stringify(params))}`);
    return call.join(' \\\n');
  }
  if (entry.encodings.includes('multipart')) {
    for (const file of files) call.push(`  -F ${FILE_FIELD[entry.input_kind]}=@${shellWord(file.path)}`);
    for (const [name, value] of Object.entries(params))
      call.push(`  -F ${singleQuoted(`${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`)}`);
    return call.join(' \\\n');
  }
  const refs = files.map((_, i) => `__REF_${i + 1}__`);
  const body = JSON.stringify({
    ...params,
    ...(entry.input_kind === 'images' ? { input_refs: refs } : { input_ref: refs[0] }),
  });
  // each reference placeholder becomes the shell variable, outside the single quotes
  const quotedBody = refs.reduce((text, ref, i) => text.replace(`"${ref}"`, `"'"$REF_${i + 1}"'"`), singleQuoted(body));
  call.push("  -H 'Content-Type: application/json'", `  -d ${quotedBody}`);
  return [
    `# ${entry.slug} takes JSON only: upload each file first, then name the uploads`,
    '# upload FILE TYPE: creates an upload, PUTs the bytes to its URL, prints its upload_ref (needs jq)',
    'upload() {',
    `  UPLOAD=$(curl -s -X POST "${location.origin}/v1/uploads" -H "Authorization: Bearer $AIS_TEST_KEY" \\`,
    `    -H 'Content-Type: application/json' -d "{\\"content_type\\":\\"$2\\",\\"size_bytes\\":$(wc -c < "$1")}")`,
    '  curl -s -X PUT "$(echo "$UPLOAD" | jq -r .url)" -H "Content-Type: $2" --data-binary @"$1" > /dev/null',
    '  echo "$UPLOAD" | jq -r .upload_ref',
    '}',
    ...files.map((file, i) => `REF_${i + 1}=$(upload ${shellWord(file.path)} ${file.type})`),
    call.join(' \\\n'),
  ].join('\n');
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
      (entry) => entry.availability === 'available',
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
    <fieldset id="input-choice"></fieldset>
    <label>Scenario <select name="scenario" id="scenario"></select></label>
    <label>Parameters (JSON) <textarea name="params" id="params" rows="3" spellcheck="false"></textarea></label>
    <div class="row"><button id="run">Run</button><span id="run-status" class="muted"></span></div>
  </form>
  <div id="run-result"></div>
  <section class="panel"><h2>The same with curl</h2><p class="muted small" id="encoding-note"></p><pre id="curl" class="wrap" tabindex="0"></pre><button type="button" id="copy-curl">Copy</button></section>`;
  const form = host.querySelector<HTMLFormElement>('#run-form')!;
  const entryOf = () => catalogue.find((entry) => entry.slug === form.endpoint.value)!;
  const params = (): Record<string, unknown> => {
    const text = (form.elements.namedItem('params') as HTMLTextAreaElement).value.trim();
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  const ownFiles = () => [...((form.elements.namedItem('file') as HTMLInputElement | null)?.files ?? [])];
  const usesOwn = () => (form.elements.namedItem('input') as RadioNodeList | null)?.value === 'own';
  /** What the run sends: the endpoint's samples, or the files chosen. */
  const chosenInputs = (): Input[] =>
    usesOwn()
      ? ownFiles().map((file) => ({ file, sample: null }))
      : samplesFor(entryOf()).map((picked) => ({ file: null, sample: picked }));
  const refreshCurl = () => {
    let shown: Record<string, unknown> = {};
    try {
      shown = params();
    } catch {
      shown = {};
    }
    const entry = entryOf();
    const files = chosenInputs().map(({ file, sample: picked }) => ({
      path: picked?.file ?? file!.name,
      type: picked?.type ?? (file!.type || 'application/octet-stream'),
    }));
    host.querySelector('#encoding-note')!.textContent =
      entry.input_kind === 'json'
        ? `${entry.slug} takes JSON parameters and no file.`
        : entry.encodings.includes('multipart')
          ? `${entry.slug} takes its files in the request (multipart) or as uploads (JSON).`
          : `${entry.slug} takes JSON only: its files are uploaded first (POST /v1/uploads), then named by reference.`;
    host.querySelector('#curl')!.textContent = commandFor(
      entry,
      (form.elements.namedItem('scenario') as HTMLSelectElement).value,
      shown,
      files.length ? files : [{ path: 'your-file', type: 'application/octet-stream' }],
    );
  };
  const choose = () => {
    const entry = entryOf();
    (host.querySelector('#scenario') as HTMLSelectElement).innerHTML =
      `<option value="">none: a normal run</option>${entry.scenarios.map((s) => `<option>${escapeHtml(s)}</option>`).join('')}`;
    (form.elements.namedItem('params') as HTMLTextAreaElement).value = EXAMPLE_PARAMS[entry.slug]
      ? JSON.stringify(EXAMPLE_PARAMS[entry.slug])
      : '';
    const choice = host.querySelector<HTMLElement>('#input-choice')!;
    choice.classList.toggle('hidden', entry.input_kind === 'json');
    choice.innerHTML = entry.input_kind === 'json' ? '' : inputChoice(entry);
    refreshCurl();
  };
  form.endpoint.addEventListener('change', choose);
  form.addEventListener('input', refreshCurl);
  form.addEventListener('change', (event) => {
    if ((event.target as HTMLElement).getAttribute('name') === 'file')
      form.querySelector<HTMLInputElement>('input[name=input][value=own]')!.checked = true;
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
    void run(host, client, entryOf(), form, params, chosenInputs, usesOwn);
  });
}

/** The input picker of an endpoint: its samples (one choice, however many files) or files of one's own. */
function inputChoice(entry: Entry): string {
  const kind = entry.input_kind as Exclude<Entry['input_kind'], 'json'>;
  const many = kind === 'images';
  const picked = samplesFor(entry);
  const thumb = (item: Sample) =>
    item.kind === 'image'
      ? `<img src="${item.url}" alt="">`
      : `<span class="media-chip">${item.kind === 'audio' ? 'WAV' : 'MP4'}</span>`;
  const names = [...new Set(picked.map((item) => item.label))].join(', ');
  return `<legend>${many ? 'Inputs' : 'Input'}</legend>
    <label class="sample${many ? ' set' : ''}"><input type="radio" name="input" value="samples" checked><span class="thumbs">${[...new Map(picked.map((item) => [item.id, item])).values()].map(thumb).join('')}</span><span>${escapeHtml(many ? `${picked.length} samples: ${names}` : names)}</span></label>
    <label class="sample upload"><input type="radio" name="input" value="own"><span>Your own${many ? ' (several)' : ''}</span><input type="file" name="file" accept="${ACCEPT[kind]}"${many ? ' multiple' : ''} aria-label="${many ? 'your own files' : 'your own file'}"></label>`;
}

interface Input {
  file: File | null;
  sample: Sample | null;
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

/** Every input as a file to send, and as a picture to draw on. */
async function filesOf(inputs: Input[]): Promise<Array<{ file: File; picture: InputPicture }>> {
  return Promise.all(
    inputs.map(async ({ file, sample: picked }, index) => {
      const sent =
        file ??
        new File([await (await fetch(picked!.url)).blob()], picked!.file.split('/').pop()!, { type: picked!.type });
      const type = sent.type || 'application/octet-stream';
      // a sample is drawn from its own address (this origin); a file of one's own from a data: address
      const url = picked ? picked.url : type.startsWith('image/') ? await dataUrl(sent) : null;
      return { file: sent, picture: { index, url, content_type: type, filename: sent.name } };
    }),
  );
}

async function run(
  host: HTMLElement,
  client: ReturnType<typeof inferenceClient>,
  entry: Entry,
  form: HTMLFormElement,
  params: () => Record<string, unknown>,
  chosenInputs: () => Input[],
  usesOwn: () => boolean,
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
  status.textContent = 'Preparing…';
  try {
    const scenario = (form.elements.namedItem('scenario') as HTMLSelectElement).value;
    let inputs: Array<{ file: File; picture: InputPicture }> = [];
    let body: Parameters<typeof client.createJob>[1];
    if (entry.input_kind === 'json') body = { json: values };
    else {
      if (usesOwn() && chosenInputs().length === 0) throw new Error('Choose a file of your own, or the samples.');
      inputs = await filesOf(chosenInputs());
      const kind = entry.input_kind as Exclude<Entry['input_kind'], 'json'>;
      if (entry.encodings.includes('multipart')) {
        const fields = Object.fromEntries(
          Object.entries(values).map(([k, v]) => [
            k,
            typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean),
          ]),
        );
        body = { files: { [FILE_FIELD[kind]]: inputs.map(({ file }) => file) }, fields };
      } else {
        // JSON only (catalogue `encodings`): each file becomes an upload, and the call names them
        const refs: string[] = [];
        for (const [i, { file }] of inputs.entries()) {
          status.textContent = `Uploading ${i + 1} of ${inputs.length}…`;
          refs.push(await client.upload(file, file.type || 'application/octet-stream', file.name));
        }
        body = { json: { ...values, ...(kind === 'images' ? { input_refs: refs } : { input_ref: refs[0] }) } };
      }
    }
    status.textContent = 'Sending…';
    // a fast endpoint answers with the settled job (`wait`); the others are polled
    const admitted = (await client.createJob(entry.slug as never, {
      ...body,
      ...(scenario ? { scenario } : {}),
      wait: entry.accepts_wait,
    })) as Schemas['Job'];
    status.innerHTML = `${code(admitted.id)} ${statusBadge(admitted.status)} waiting…`;
    const settled = ['succeeded', 'failed', 'canceled', 'expired'].includes(admitted.status);
    const job = settled ? admitted : await client.waitForJob(admitted.id, { maxDelayMs: 2000 });
    status.innerHTML = `${code(job.id)} ${statusBadge(job.status)} <a href="/dashboard/jobs/${job.id}" data-link id="open-job">open the job</a>`;
    if (job.error)
      out.innerHTML = `<div class="error" id="play-error"><a href="/docs/errors/${encodeURIComponent(job.error.code)}">${escapeHtml(job.error.code)}</a>: ${escapeHtml(job.error.message)}</div>`;
    if (job.result) {
      await drawResult(
        out,
        entry.slug,
        job.result,
        inputs.map(({ picture }) => picture),
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
