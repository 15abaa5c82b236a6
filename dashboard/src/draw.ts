import { counted } from './counted.js';
import { escapeHtml, table } from './html.js';
import { type LabelRequest, placeLabels } from './label-placement.js';

/**
 * Results drawn on their input: boxes, polygons and masks over the picture (one SVG whose viewBox
 * is the picture's pixel size, built once the picture has loaded so shapes keep its proportions),
 * text beside the crop it was read from, produced files as pictures or videos. Everything is SVG
 * presentation attributes or CSS classes, never a `style` attribute: the dashboard runs under a
 * Content-Security-Policy without inline styles or scripts.
 */

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Shape {
  bbox: Box;
  label: string;
}

interface SignedFile {
  url: string;
  content_type: string;
  width: number | null;
  height: number | null;
}

interface Crop {
  /** where on the input (drawn from the input when `file` is absent) */
  bbox: Box | null;
  file: SignedFile | null;
  title: string;
  detail: string;
}

interface Point {
  x: number;
  y: number;
  label: string;
}

/** What one input carries: shapes, masks and points over it. */
interface Overlay {
  shapes: Shape[];
  masks: Array<{ file: SignedFile; label: string }>;
  points: Point[];
}

export interface Drawing {
  /** overlays by input index (most endpoints: input 0 only) */
  overlays: Map<number, Overlay>;
  crops: Crop[];
  files: Array<{ path: string; file: SignedFile }>;
  /** endpoint-specific panels (tables, timelines), HTML */
  panels: string[];
}

export interface InputPicture {
  index: number;
  url: string | null;
  content_type: string;
  filename: string | null;
}

const PALETTE = ['#e4572e', '#1b998b', '#2e86de', '#f0a202', '#9b5de5', '#f15bb5', '#00a6a6', '#7cb518'];

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isBox = (value: unknown): value is Box =>
  isObject(value) && ['x', 'y', 'width', 'height'].every((k) => typeof value[k] === 'number');
const isFile = (value: unknown): value is SignedFile =>
  isObject(value) && typeof value.url === 'string' && typeof value.content_type === 'string';
const percent = (value: unknown) => (typeof value === 'number' ? ` ${Math.round(value * 100)}%` : '');
const words = (value: unknown) => String(value ?? '').replaceAll('_', ' ');

/** A short name for a detected thing, from the fields it has (plates, damages, parts, fields, lamps…). */
function labelOf(item: Json, fallback: string): string {
  const confidence = percent(item.confidence);
  if (typeof item.text === 'string') return `${item.text}${confidence}`;
  if (item.type && item.part)
    return `${words(item.type)} · ${words(item.part)}${item.severity ? ` (${item.severity})` : ''}${confidence}`;
  if (item.tread_depth_mm && isObject(item.tread_depth_mm))
    return `${words(item.wear)} · ${item.tread_depth_mm.average} mm${confidence}`;
  if (typeof item.brand === 'string')
    return `${item.brand}${isObject(item.size) ? ` ${item.size.text}` : ''}${confidence}`;
  if (typeof item.value === 'number' && typeof item.unit === 'string')
    return `${item.value.toLocaleString('en-US')} ${item.unit}${confidence}`;
  if (typeof item.key === 'string') return `${item.label ?? item.key}: ${item.value}${confidence}`;
  if (typeof item.label === 'string') return `${item.label}${confidence}`;
  if (typeof item.part === 'string') return `${words(item.part)}${confidence}`;
  if (typeof item.body_type === 'string')
    return `${isObject(item.color) ? `${item.color.name} ` : ''}${item.body_type}${confidence}`;
  if (typeof item.type === 'string') return `${words(item.type)}${confidence}`;
  return `${fallback}${confidence}`;
}

/**
 * Every `bbox` and every signed file in a result, wherever it sits, with the input it belongs to:
 * on a multi-input endpoint a result's per-input entries carry the `index` of their input among
 * `inputs` (the job's input numbers the result counts over), and what is under such an entry is
 * drawn on that input; everything else on `input`.
 */
function walk(
  value: unknown,
  path: string,
  visit: {
    box: (owner: Json, path: string, input: number) => void;
    file: (file: SignedFile, path: string, input: number) => void;
  },
  inputs: readonly number[],
  input: number,
): void {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const own = isObject(item) && typeof item.index === 'number' ? inputs[item.index] : undefined;
      walk(item, `${path}[${i}]`, visit, inputs, inputs.length > 1 && own !== undefined ? own : input);
    }
  } else if (isFile(value)) visit.file(value, path, input);
  else if (isObject(value)) {
    if (isBox(value.bbox)) visit.box(value, path, input);
    for (const [key, child] of Object.entries(value))
      if (key !== 'bbox') walk(child, path ? `${path}.${key}` : key, visit, inputs, input);
  }
}

/**
 * Which of a job's inputs each part of its result counts over: for an inspection, the walk-around
 * stage over the video and the image stages over the photos (in input order, as the pipeline hands
 * them on); for any other job, all its inputs.
 */
function inputsOfParts(
  endpoint: string,
  result: Json,
  inputs: readonly { content_type: string }[],
): Array<{ key: string | null; value: unknown; inputs: number[] }> {
  const all = inputs.length ? inputs.map((_, i) => i) : [0];
  if (endpoint !== 'inspections' || !isObject(result.stages)) return [{ key: null, value: result, inputs: all }];
  const photos = all.filter((i) => inputs[i]?.content_type.startsWith('image/'));
  const videos = all.filter((i) => !inputs[i]?.content_type.startsWith('image/'));
  return [
    { key: null, value: Object.fromEntries(Object.entries(result).filter(([k]) => k !== 'stages')), inputs: all },
    ...Object.entries(result.stages).map(([name, value]) => ({
      key: `stages.${name}`,
      value,
      inputs: name === 'onboard_walkaround' ? videos : photos,
    })),
  ];
}

const emptyOverlay = (): Overlay => ({ shapes: [], masks: [], points: [] });

/**
 * How to draw one endpoint's result: a generic reading of boxes and files, plus what only that
 * endpoint has. `inputs` are the job's inputs, in order: each box goes on the input it belongs to.
 */
export function describeResult(
  endpoint: string,
  result: Json,
  inputs: readonly { content_type: string }[] = [],
): Drawing {
  const overlay = emptyOverlay();
  const drawing: Drawing = { overlays: new Map([[0, overlay]]), crops: [], files: [], panels: [] };
  const overlayOf = (input: number) => {
    const found = drawing.overlays.get(input);
    if (found) return found;
    const added = emptyOverlay();
    drawing.overlays.set(input, added);
    return added;
  };
  const visit = {
    box: (owner: Json, path: string, input: number) =>
      overlayOf(input).shapes.push({
        bbox: owner.bbox as Box,
        // a box on the result itself is what the endpoint found: the vehicle, the tyre…
        label: labelOf(owner, words(path.split('.').pop() || endpoint.split('.')[0])),
      }),
    file: (file: SignedFile, path: string, input: number) => {
      // masks go over the picture; every file is also shown as itself
      if (/(^|\.)mask$/.test(path) && file.content_type.startsWith('image/'))
        overlayOf(input).masks.push({ file, label: path.replace(/\.mask$/, '') });
      drawing.files.push({ path, file });
    },
  };
  for (const part of inputsOfParts(endpoint, result, inputs))
    walk(part.value, part.key ?? '', visit, part.inputs.length ? part.inputs : [0], part.inputs[0] ?? 0);
  const extra = SPECIFIC[endpoint];
  if (extra) extra(result, drawing);
  else drawing.panels.push(facts(result));
  return drawing;
}

/** The scalar fields of a result (and of its small objects), as a definition list. */
function facts(result: Json): string {
  const rows: string[] = [];
  for (const [key, value] of Object.entries(result)) {
    if (value === null || typeof value !== 'object')
      rows.push(`<dt>${escapeHtml(words(key))}</dt><dd>${escapeHtml(value === null ? '—' : value)}</dd>`);
    else if (
      isObject(value) &&
      !isFile(value) &&
      Object.values(value).every((v) => v === null || typeof v !== 'object')
    )
      rows.push(
        `<dt>${escapeHtml(words(key))}</dt><dd>${escapeHtml(
          Object.entries(value)
            .map(([k, v]) => `${words(k)} ${v ?? '—'}`)
            .join(' · '),
        )}</dd>`,
      );
  }
  return rows.length ? `<dl class="facts">${rows.join('')}</dl>` : '';
}

const money = (minor: unknown, currency: unknown) =>
  typeof minor === 'number'
    ? (minor / 100).toLocaleString('en-US', { style: 'currency', currency: String(currency ?? 'usd').toUpperCase() })
    : '—';

const SPECIFIC: Record<string, (result: Json, drawing: Drawing) => void> = {
  'plate.read': (result, drawing) => {
    for (const plate of (result.plates as Json[]) ?? []) {
      const region = isObject(plate.region)
        ? [plate.region.country, plate.region.subdivision].filter(Boolean).join(' · ')
        : '';
      drawing.crops.push({
        bbox: plate.bbox as Box,
        file: isFile(plate.crop) ? plate.crop : null,
        title: String(plate.text),
        detail: `${region}${percent(plate.confidence)}`,
      });
    }
    drawing.files = drawing.files.filter((entry) => !/^plates\[\d+\]\.crop$/.test(entry.path));
    drawing.panels.push(reviewNote(result));
  },
  'vin.read': (result, drawing) => {
    const vin = result.vin as Json | null;
    if (vin) {
      drawing.crops.push({
        bbox: vin.bbox as Box,
        file: null,
        title: String(vin.text),
        detail: `check digit ${vin.checksum_valid ? 'valid' : 'invalid'}${percent(vin.confidence)}`,
      });
      if (isObject(vin.decoded)) drawing.panels.push(facts(vin.decoded));
    } else drawing.panels.push('<p class="muted">No legible VIN.</p>');
    drawing.panels.push(reviewNote(result));
  },
  'vehicle.identify': (result, drawing) => {
    drawing.panels.push(
      table(
        ['make', 'model', 'generation', 'years', 'body', 'confidence'],
        ((result.candidates as Json[]) ?? []).map((c) =>
          [c.make, c.model, c.generation ?? '—', `${c.year_from}–${c.year_to}`, c.body_type, percent(c.confidence)].map(
            escapeHtml,
          ),
        ),
      ),
    );
  },
  'document.read': (result, drawing) => {
    drawing.panels.push(facts(result));
    drawing.panels.push(
      table(
        ['field', 'value', 'page', 'confidence'],
        ((result.fields as Json[]) ?? []).map((f) => [
          escapeHtml(f.label ?? f.key),
          `<strong>${escapeHtml(f.value)}</strong>`,
          escapeHtml(f.page),
          escapeHtml(percent(f.confidence)),
        ]),
      ),
    );
  },
  'engine.detect': (result, drawing) => {
    drawing.panels.push(facts(result));
    const duration = Number(result.duration_seconds) || 1;
    const findings = (result.findings as Json[]) ?? [];
    const bars = findings
      .map((f, i) => {
        const x = (Number(f.start_seconds) / duration) * 1000;
        const width = Math.max(4, ((Number(f.end_seconds) - Number(f.start_seconds)) / duration) * 1000);
        return `<rect x="${x}" y="${10 + i * 34}" width="${width}" height="26" rx="4" fill="${PALETTE[i % PALETTE.length]}"/><text x="${x + 6}" y="${28 + i * 34}" font-size="16" fill="#fff">${escapeHtml(`${words(f.type)} ${f.start_seconds}–${f.end_seconds} s`)}</text>`;
      })
      .join('');
    drawing.panels.push(
      `<figure class="timeline-chart"><svg viewBox="0 0 1000 ${20 + Math.max(1, findings.length) * 34}" role="img" aria-label="findings over the recording"><rect width="1000" height="100%" fill="#f1f3f5"/>${bars}</svg><figcaption>${duration} s of recording; each bar is a finding</figcaption></figure>`,
    );
  },
  'pricing.vehicle': (result, drawing) => {
    drawing.panels.push(facts(result.vehicle as Json));
    const valuation = result.valuation as Record<string, Json> | null;
    drawing.panels.push(
      valuation
        ? table(
            ['channel', 'low', 'mid', 'high'],
            Object.entries(valuation).map(([channel, range]) => [
              escapeHtml(words(channel)),
              ...['low', 'mid', 'high'].map((k) => escapeHtml(money(range[k], result.currency))),
            ]),
          )
        : '<p class="muted">Too few comparable listings to value this vehicle.</p>',
    );
    drawing.panels.push(
      `<p class="muted">${escapeHtml(result.comparables_count)} comparable listings${percent(result.confidence) ? ` · confidence${percent(result.confidence)}` : ''}</p>`,
    );
  },
  'pricing.repair': (result, drawing) => {
    const currency = result.currency;
    drawing.panels.push(
      table(
        ['part', 'action', 'labour', 'parts', 'paint', 'total'],
        ((result.line_items as Json[]) ?? []).map((line) => [
          escapeHtml(line.label),
          escapeHtml(line.action),
          escapeHtml(`${money(line.labour, currency)} (${line.labour_hours} h)`),
          escapeHtml(money(line.parts, currency)),
          escapeHtml(money(line.paint, currency)),
          `<strong>${escapeHtml(money(line.total, currency))}</strong>`,
        ]),
      ),
    );
    const totals = (result.totals as Json) ?? {};
    const range = (result.gross_range as Json) ?? {};
    drawing.panels.push(
      `<p class="total">Net ${escapeHtml(money(totals.net, currency))} · tax ${escapeHtml(money(totals.tax, currency))} · <strong>gross ${escapeHtml(money(totals.gross, currency))}</strong> <span class="muted">(workshops: ${escapeHtml(money(range.low, currency))} – ${escapeHtml(money(range.high, currency))})</span></p>`,
    );
  },
  'viewer.hotspots': (result, drawing) => {
    const names = new Map(((result.hotspots as Json[]) ?? []).map((h) => [h.id, String(h.label)]));
    drawing.overlays.clear();
    for (const frame of (result.frames as Json[]) ?? [])
      drawing.overlays.set(Number(frame.index), {
        ...emptyOverlay(),
        points: ((frame.anchors as Json[]) ?? []).map((a) => ({
          x: Number(a.x),
          y: Number(a.y),
          label: names.get(a.hotspot_id) ?? String(a.hotspot_id),
        })),
      });
    drawing.panels.push(
      table(
        ['hotspot', 'kind', 'label', 'confidence'],
        ((result.hotspots as Json[]) ?? []).map((h) => [h.id, h.kind, h.label, percent(h.confidence)].map(escapeHtml)),
      ),
    );
  },
};

/** A note when a person should check the answer. */
function reviewNote(result: Json): string {
  return result.needs_review ? '<p class="review">Needs review: a confidence is below 50 %.</p>' : '';
}

const LABEL_FONT = 'system-ui, sans-serif';
let measurer: CanvasRenderingContext2D | null | undefined;

/**
 * A label's text width in SVG user units, measured in the font it is drawn in (a canvas, which
 * the page policy allows), with a little to spare; estimated where no canvas is at hand.
 */
function textWidth(text: string, size: number): number {
  measurer ??= typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!measurer) return text.length * size * 0.7;
  measurer.font = `100px ${LABEL_FONT}`;
  return (measurer.measureText(text).width / 100) * size * 1.04;
}

/** The text cut to `room` (user units) with an ellipsis, where it is wider than the picture. */
function fitted(text: string, size: number, room: number): string {
  if (textWidth(text, size) <= room) return text;
  let length = text.length;
  while (length > 1 && textWidth(`${text.slice(0, length)}…`, size) > room) length -= 1;
  return `${text.slice(0, length)}…`;
}

/** The on-screen size labels are drawn at, in CSS pixels, whatever the picture's scale. */
const LABEL_PX = 12;

/**
 * The SVG of one input with its overlay, in the input's own pixel units. `shownWidth` is how wide
 * the picture is drawn on screen (CSS pixels), so labels are sized to be read there (LABEL_PX),
 * on a 390 px phone as on a desktop; where they go is placeLabels' rule: none covers another.
 */
function overlaySvg(
  imageUrl: string | null,
  width: number,
  height: number,
  overlay: Overlay,
  idPrefix: string,
  shownWidth: number,
): string {
  const scale = width / Math.max(1, Math.min(shownWidth, width * 4));
  const stroke = Math.max(1.5, 2 * scale);
  const font = LABEL_PX * scale;
  const pad = font * 0.3;
  const labelHeight = font * 1.35;
  const texts = [...overlay.shapes, ...overlay.points].map((item) => fitted(item.label, font, width - 2 * pad));
  const requests: LabelRequest[] = [
    ...overlay.shapes.map((shape, i) => ({
      box: {
        x: shape.bbox.x * width,
        y: shape.bbox.y * height,
        width: shape.bbox.width * width,
        height: shape.bbox.height * height,
      },
      width: textWidth(texts[i]!, font) + 2 * pad,
      height: labelHeight,
    })),
    ...overlay.points.map((point, i) => ({
      box: { x: point.x * width - font * 0.5, y: point.y * height - font * 0.5, width: font, height: font },
      width: textWidth(texts[overlay.shapes.length + i]!, font) + 2 * pad,
      height: labelHeight,
    })),
  ];
  const layout = placeLabels(requests, { width, height }, stroke);
  const parts: string[] = [
    imageUrl
      ? `<image href="${escapeHtml(imageUrl)}" width="${width}" height="${height}"/>`
      : `<rect width="${width}" height="${height}" fill="#e9ecef"/>`,
  ];
  if (layout.extraHeight)
    parts.push(`<rect y="${height}" width="${width}" height="${layout.extraHeight}" fill="#f1f3f5"/>`);
  overlay.masks.forEach((mask, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    // white in the mask shows the colour: the masked region, tinted, over the picture
    parts.push(
      `<mask id="${idPrefix}-m${i}" mask-type="luminance"><image href="${escapeHtml(mask.file.url)}" width="${width}" height="${height}" preserveAspectRatio="none"/></mask><rect class="mask" width="${width}" height="${height}" fill="${color}" fill-opacity="0.45" mask="url(#${idPrefix}-m${i})"><title>${escapeHtml(mask.label)}</title></rect>`,
    );
  });
  const label = (text: string, color: string, i: number) => {
    const place = layout.labels[i]!;
    return (
      `<rect class="label" x="${place.x}" y="${place.y}" width="${place.width}" height="${place.height}" fill="${color}" rx="${stroke}"/>` +
      `<text x="${place.x + pad}" y="${place.y + font * 1.02}" font-size="${font}" fill="#fff" font-family="${LABEL_FONT}">${escapeHtml(text)}</text>`
    );
  };
  const boxes: string[] = [];
  const labels: string[] = [];
  overlay.shapes.forEach((_, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    const r = requests[i]!.box;
    boxes.push(
      `<rect x="${r.x}" y="${r.y}" width="${r.width}" height="${r.height}" fill="${color}" fill-opacity="0.12" stroke="${color}" stroke-width="${stroke}" rx="${stroke}"/>`,
    );
    labels.push(`<g class="shape" data-shape="${i}">${label(texts[i]!, color, i)}</g>`);
  });
  overlay.points.forEach((point, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    boxes.push(
      `<circle cx="${point.x * width}" cy="${point.y * height}" r="${font * 0.5}" fill="${color}" stroke="#fff" stroke-width="${stroke}"/>`,
    );
    labels.push(`<g class="point">${label(texts[overlay.shapes.length + i]!, color, overlay.shapes.length + i)}</g>`);
  });
  // every box under every label: a label is never hidden by another shape's outline
  parts.push(`<g class="boxes">${boxes.join('')}</g>`, ...labels);
  return `<svg class="overlay" viewBox="0 0 ${width} ${height + layout.extraHeight}" role="img" aria-label="result drawn on the input">${parts.join('')}</svg>`;
}

/**
 * How wide one drawn input is on screen, from the width of the area it is drawn in: the figures'
 * grid (style.css, `.drawing .figures`) puts columns of at least 22rem side by side, a lone figure
 * at most 52rem wide, each with 0.5rem of padding.
 */
function figureWidth(areaWidth: number, figures: number): number {
  const rem = 16;
  const columns = Math.max(1, Math.min(figures, Math.floor((areaWidth + rem) / (22 * rem + rem))));
  const column = (areaWidth - (columns - 1) * rem) / columns;
  return Math.min(column, figures === 1 ? 52 * rem : column) - rem;
}

/** The natural size of a picture (cross-origin is fine: nothing reads its pixels). */
function pictureSize(url: string): Promise<{ width: number; height: number } | null> {
  return new Promise((resolve) => {
    const image = new Image();
    image.onload = () => resolve({ width: image.naturalWidth, height: image.naturalHeight });
    image.onerror = () => resolve(null);
    image.src = url;
  });
}

function cropSvg(imageUrl: string, width: number, height: number, box: Box): string {
  const pad = 0.15;
  const x = Math.max(0, (box.x - box.width * pad) * width);
  const y = Math.max(0, (box.y - box.height * pad) * height);
  const w = Math.min(width - x, box.width * (1 + 2 * pad) * width);
  const h = Math.min(height - y, box.height * (1 + 2 * pad) * height);
  return `<svg class="crop" viewBox="${x} ${y} ${w} ${h}" role="img" aria-label="crop of the input"><image href="${escapeHtml(imageUrl)}" width="${width}" height="${height}"/></svg>`;
}

function fileView(path: string, file: SignedFile): string {
  const caption = `<figcaption>${escapeHtml(path)} · ${escapeHtml(file.content_type)}${file.width ? ` · ${file.width}×${file.height}` : ''} · <a href="${escapeHtml(file.url)}" target="_blank" rel="noopener">open</a></figcaption>`;
  if (file.content_type.startsWith('video/'))
    return `<figure class="file"><video src="${escapeHtml(file.url)}" controls muted loop playsinline></video>${caption}</figure>`;
  if (file.content_type.startsWith('image/'))
    return `<figure class="file checker"><img src="${escapeHtml(file.url)}" alt="${escapeHtml(path)}" loading="lazy">${caption}</figure>`;
  return `<figure class="file">${caption}</figure>`;
}

const NOT_KEPT =
  'The input was not kept: in test mode a multipart input is read for its hash only. Send it as an upload (input_ref), in live mode, or from the Playground to see the picture here; the shapes are drawn on a blank frame.';

/**
 * Draws a result into `host`: each input with its overlay, the crops with their text, the
 * endpoint's panels, the produced files. Inputs that are not pictures (audio, video) are listed.
 */
export async function drawResult(
  host: HTMLElement,
  endpoint: string,
  result: Json,
  inputs: InputPicture[],
): Promise<void> {
  const drawing = describeResult(endpoint, result, inputs);
  const figures: string[] = [];
  // the inputs that get a figure: a picture, or shapes to draw (on a blank frame)
  const shown = [...drawing.overlays].filter(
    ([index, overlay]) =>
      overlay.shapes.length + overlay.masks.length + overlay.points.length > 0 ||
      inputs.some((input) => input.index === index && input.url && input.content_type.startsWith('image/')),
  ).length;
  const shownWidth = figureWidth(host.clientWidth || 800, Math.max(1, shown));
  const base = new Map<number, { url: string | null; width: number; height: number }>();
  for (const [index, overlay] of drawing.overlays) {
    const input = inputs.find((candidate) => candidate.index === index);
    const picture = input?.url && input.content_type.startsWith('image/') ? input.url : null;
    const size = picture ? await pictureSize(picture) : null;
    const frame = { url: size ? picture : null, width: size?.width ?? 1000, height: size?.height ?? 750 };
    base.set(index, frame);
    const drawn = overlay.shapes.length + overlay.masks.length + overlay.points.length > 0;
    if (!drawn && !frame.url) continue;
    const note =
      input && !input.url && input.content_type.startsWith('image/')
        ? `<p class="muted small">${escapeHtml(NOT_KEPT)}</p>`
        : '';
    figures.push(
      `<figure class="drawn" data-input="${index}">${overlaySvg(frame.url, frame.width, frame.height, overlay, `i${index}`, shownWidth)}<figcaption>${escapeHtml(input?.filename ?? `input ${index}`)}${drawn ? ` · ${counted(overlay.shapes.length + overlay.points.length, 'shape')}${overlay.masks.length ? `, ${counted(overlay.masks.length, 'mask')}` : ''}` : ''}</figcaption>${note}</figure>`,
    );
  }
  const first = base.get(0);
  const crops = drawing.crops.map((crop) => {
    const picture = crop.file
      ? `<img class="crop" src="${escapeHtml(crop.file.url)}" alt="crop">`
      : crop.bbox && first?.url
        ? cropSvg(first.url, first.width, first.height, crop.bbox)
        : '<div class="crop blank"></div>';
    return `<div class="read"><div class="read-crop">${picture}</div><div class="read-text"><div class="read-title">${escapeHtml(crop.title)}</div><div class="muted">${escapeHtml(crop.detail)}</div></div></div>`;
  });
  const otherInputs = inputs.filter((input) => !input.content_type.startsWith('image/'));
  host.innerHTML = `<div class="drawing">
    ${figures.length ? `<div class="figures">${figures.join('')}</div>` : ''}
    ${crops.length ? `<div class="reads">${crops.join('')}</div>` : ''}
    ${drawing.panels.filter(Boolean).join('')}
    ${drawing.files.length ? `<h3>Files</h3><div class="files">${drawing.files.map(({ path, file }) => fileView(path, file)).join('')}</div>` : ''}
    ${otherInputs.length ? `<p class="muted">Input: ${otherInputs.map((input) => `${escapeHtml(input.filename ?? `input ${input.index}`)} (${escapeHtml(input.content_type)})${input.url ? ` · <a href="${escapeHtml(input.url)}" target="_blank" rel="noopener">open</a>` : ''}`).join(', ')}</p>` : ''}
  </div>`;
}
