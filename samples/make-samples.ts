import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type { CarEndLayout, CarSideLayout } from '../lambdas/sandbox/samples/car-views.js';
import {
  CAR,
  DAMAGED,
  type DrawnDamage,
  doorScratch,
  ENGINE,
  LAYOUTS,
  REGISTRATION,
  SAMPLE_VEHICLE,
  STRIP_MIRROR_AXIS,
  TIRE,
  VIN_LABEL,
  WALKAROUND,
} from '../lambdas/sandbox/samples/scenes.js';
import type { PixelBox } from '../lambdas/sandbox/samples/shapes.js';
import { engineRecording } from './engine-sound.js';

/**
 * `npm run samples:make`: draws the sample inputs (samples/README.md) from their scene descriptions
 * (lambdas/sandbox/samples/scenes.ts, the same ones the test-mode backend answers from) as SVG,
 * photographs them with Debian's chromium, encodes the walk-around with Debian's ffmpeg and
 * synthesises the engine recording. Nothing is downloaded; the output is deterministic up to the
 * encoders' versions. A regenerated file has new bytes, so its SHA-256 in
 * lambdas/sandbox/samples/fingerprints.ts must be updated with it (a test checks they agree).
 */
const OUT = resolve(import.meta.dirname);
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const SKY_AND_ROAD = `
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#9cc7ea"/><stop offset="1" stop-color="#e3eef6"/></linearGradient>
    <linearGradient id="paint" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#c7352b"/><stop offset="1" stop-color="#8e1f18"/></linearGradient>
    <linearGradient id="glass" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3a4a5a"/><stop offset="1" stop-color="#7d92a6"/></linearGradient>
    <radialGradient id="dent"><stop offset="0" stop-color="#4a0c08"/><stop offset=".7" stop-color="#6e1610"/><stop offset="1" stop-color="#8e1f18" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="100%" height="62%" fill="url(#sky)"/>
  <rect y="62%" width="100%" height="38%" fill="#6d6f72"/>
  <rect y="62%" width="100%" height="1.2%" fill="#8a8c8f"/>`;

function plate(box: PixelBox): string {
  const { x, y, width, height } = box;
  return `<g>
    <rect x="${x}" y="${y}" width="${width}" height="${height}" rx="${height * 0.12}" fill="#f7f7f2" stroke="#111" stroke-width="${width * 0.012}"/>
    <rect x="${x + width * 0.012}" y="${y + width * 0.012}" width="${width * 0.07}" height="${height - width * 0.024}" fill="#1c3f9e"/>
    <text x="${x + width * 0.54}" y="${y + height * 0.76}" font-family="DejaVu Sans Mono" font-weight="bold" font-size="${height * 0.66}" text-anchor="middle" fill="#111" letter-spacing="${width * 0.004}">${SAMPLE_VEHICLE.plate}</text>
  </g>`;
}

function wheel(cx: number, cy: number, r: number): string {
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#1d1d1f"/><circle cx="${cx}" cy="${cy}" r="${r * 0.58}" fill="#b9bcc0"/><circle cx="${cx}" cy="${cy}" r="${r * 0.16}" fill="#55585c"/>
    ${[0, 72, 144, 216, 288].map((a) => `<rect x="${cx - r * 0.05}" y="${cy - r * 0.55}" width="${r * 0.1}" height="${r * 0.42}" fill="#8b8e92" transform="rotate(${a} ${cx} ${cy})"/>`).join('')}`;
}

function rect(box: PixelBox, attributes: string): string {
  return `<rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" ${attributes}/>`;
}

/** The car seen from one end: shadow, tyres, cabin, glass and body; then lamps, grille and plate. */
function carEnd(layout: CarEndLayout, end: 'front' | 'rear'): string {
  const { x, width: w, body, ground, cabin, tyres, lamps, grille, band } = layout;
  const cx = x + w / 2;
  const { base, top, glass } = cabin;
  const lampStyle =
    end === 'front'
      ? `rx="${w * 0.02}" fill="#f4f1d0" stroke="#333" stroke-width="2"`
      : `rx="${w * 0.015}" fill="#c0141b" stroke="#5a0a0d" stroke-width="2"`;
  const details =
    end === 'front'
      ? `
    ${rect(lamps[0], lampStyle)}
    ${rect(lamps[1], lampStyle)}
    ${rect(grille as PixelBox, `rx="${w * 0.015}" fill="#2a2a2d"`)}
    ${[1, 2, 3, 4].map((i) => `<rect x="${x + w * 0.31}" y="${body + w * 0.05 + i * w * 0.013}" width="${w * 0.38}" height="${w * 0.004}" fill="#5b5b60"/>`).join('')}
    ${plate(layout.plate)}`
      : `
    ${rect(lamps[0], lampStyle)}
    ${rect(lamps[1], lampStyle)}
    ${plate(layout.plate)}`;
  return `<g>
    <ellipse cx="${cx}" cy="${ground + w * 0.01}" rx="${w * 0.56}" ry="${w * 0.035}" fill="#000" opacity=".25"/>
    ${rect(tyres[0], `rx="${w * 0.02}" fill="#1d1d1f"`)}
    ${rect(tyres[1], `rx="${w * 0.02}" fill="#1d1d1f"`)}
    <path d="M${x + w * base} ${body} L${x + w * (base + 0.1)} ${body - w * top} Q${cx} ${body - w * (top + 0.04)} ${x + w * (0.9 - base)} ${body - w * top} L${x + w * (1 - base)} ${body} Z" fill="url(#paint)"/>
    <path d="M${x + w * (base + 0.06)} ${body - w * glass} L${x + w * (base + 0.12)} ${body - w * (top - 0.04)} Q${cx} ${body - w * (top - 0.01)} ${x + w * (0.88 - base)} ${body - w * (top - 0.04)} L${x + w * (0.94 - base)} ${body - w * glass} Z" fill="url(#glass)"/>
    <rect x="${x}" y="${body}" width="${w}" height="${w * 0.28}" rx="${w * 0.05}" fill="url(#paint)"/>
    ${rect(band, `rx="${w * 0.03}" fill="#2b2b2e"`)}
    ${details}
  </g>`;
}

function damageMark(damage: DrawnDamage): string {
  const { shape } = damage;
  if (shape.kind === 'stroke') {
    const [first, ...rest] = shape.points;
    const d = `M${first?.[0]} ${first?.[1]} ${rest.map(([px, py]) => `L${px} ${py}`).join(' ')}`;
    return `<path d="${d}" stroke="#f2f2f2" stroke-width="${shape.stroke}" fill="none" opacity=".8"/>`;
  }
  const d = `M${shape.outline.map(([px, py]) => `${px} ${py}`).join(' L')} Z`;
  return damage.type === 'rust'
    ? `<path d="${d}" fill="#7a4a1c"/><path d="${d}" fill="none" stroke="#4f2e10" stroke-width="3" stroke-dasharray="5 4"/>`
    : `<path d="${d}" fill="url(#dent)"/>`;
}

/** The car from its right side, front to the right, with the damage drawn on it. */
function carSide(layout: CarSideLayout, damages: readonly DrawnDamage[]): string {
  const { x, length: l, ground, sill, belt, roof, wheels } = layout;
  return `<g>
    <ellipse cx="${x + l / 2}" cy="${ground + l * 0.01}" rx="${l * 0.52}" ry="${l * 0.03}" fill="#000" opacity=".25"/>
    <path d="M${x} ${sill} L${x} ${belt + l * 0.03} Q${x} ${belt} ${x + l * 0.04} ${belt} L${x + l * 0.2} ${belt} L${x + l * 0.32} ${roof} L${x + l * 0.64} ${roof} L${x + l * 0.76} ${belt} L${x + l * 0.95} ${belt + l * 0.02} Q${x + l} ${belt + l * 0.04} ${x + l} ${belt + l * 0.09} L${x + l} ${sill} Z" fill="url(#paint)"/>
    <path d="M${x + l * 0.23} ${belt - l * 0.005} L${x + l * 0.33} ${roof + l * 0.02} L${x + l * 0.47} ${roof + l * 0.02} L${x + l * 0.47} ${belt - l * 0.005} Z" fill="url(#glass)"/>
    <path d="M${x + l * 0.49} ${belt - l * 0.005} L${x + l * 0.49} ${roof + l * 0.02} L${x + l * 0.63} ${roof + l * 0.02} L${x + l * 0.73} ${belt - l * 0.005} Z" fill="url(#glass)"/>
    <rect x="${x + l * 0.475}" y="${belt}" width="${l * 0.006}" height="${sill - belt}" fill="#6b1712"/>
    <rect x="${x + l * 0.56}" y="${belt + l * 0.04}" width="${l * 0.05}" height="${l * 0.012}" rx="${l * 0.005}" fill="#d8d8d8"/>
    <rect x="${x + l * 0.33}" y="${belt + l * 0.04}" width="${l * 0.05}" height="${l * 0.012}" rx="${l * 0.005}" fill="#d8d8d8"/>
    ${damages.map(damageMark).join('')}
    <rect x="${x + l * 0.965}" y="${belt + l * 0.04}" width="${l * 0.035}" height="${l * 0.03}" fill="#f4f1d0"/>
    <rect x="${x}" y="${belt + l * 0.04}" width="${l * 0.025}" height="${l * 0.03}" fill="#c0141b"/>
    ${wheels.map((w) => wheel(w.cx, w.cy, w.r)).join('')}
  </g>`;
}

function svg(width: number, height: number, content: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${content}</svg>`;
}

const CAR_SVG = svg(
  CAR.width,
  CAR.height,
  `${SKY_AND_ROAD}<rect x="40" y="250" width="140" height="120" fill="#cfc6b8"/><rect x="620" y="220" width="160" height="150" fill="#bdb3a3"/>${carEnd(LAYOUTS.carFront, 'front')}`,
);

const DAMAGED_SVG = svg(
  DAMAGED.width,
  DAMAGED.height,
  `${SKY_AND_ROAD}<rect x="20" y="120" width="150" height="160" fill="#cfc6b8"/><rect x="640" y="150" width="140" height="130" fill="#bdb3a3"/>${carSide(LAYOUTS.damagedSide, DAMAGED.damages)}`,
);

/** A tyre's sidewall, its size and DOT code written around it. */
const TIRE_SVG = (() => {
  const [c] = TIRE.center;
  const arc = (r: number, start: number, end: number) => {
    const point = (angle: number) =>
      `${c + r * Math.cos((angle * Math.PI) / 180)} ${c + r * Math.sin((angle * Math.PI) / 180)}`;
    return `M${point(start)} A${r} ${r} 0 0 1 ${point(end)}`;
  };
  return svg(
    TIRE.width,
    TIRE.height,
    `<rect width="600" height="600" fill="#8d8a85"/>
    <defs><path id="top" d="${arc(232, 200, 340)}"/><path id="bottom" d="${arc(232, 30, 150)}"/>
    <radialGradient id="rubber"><stop offset=".55" stop-color="#2b2b2d"/><stop offset=".9" stop-color="#1a1a1b"/><stop offset="1" stop-color="#0e0e0f"/></radialGradient></defs>
    <circle cx="${c}" cy="${c}" r="${TIRE.radius}" fill="url(#rubber)"/>
    ${Array.from({ length: 60 }, (_, i) => `<rect x="${c - 7}" y="${c - 292}" width="14" height="26" fill="#141415" transform="rotate(${i * 6} ${c} ${c})"/>`).join('')}
    <circle cx="${c}" cy="${c}" r="190" fill="#c4c7cb" stroke="#0e0e0f" stroke-width="10"/>
    ${[0, 60, 120, 180, 240, 300].map((a) => `<path d="M${c - 18} ${c - 40} L${c - 30} ${c - 175} L${c + 30} ${c - 175} L${c + 18} ${c - 40} Z" fill="#8f9398" transform="rotate(${a} ${c} ${c})"/>`).join('')}
    <circle cx="${c}" cy="${c}" r="48" fill="#a8acb1" stroke="#6f7378" stroke-width="4"/>
    <text font-family="DejaVu Sans" font-weight="bold" font-size="40" fill="#e4e4e4" letter-spacing="3"><textPath href="#top" startOffset="50%" text-anchor="middle">${TIRE.size.text}</textPath></text>
    <text font-family="DejaVu Sans Mono" font-weight="bold" font-size="26" fill="#d8d8d8" letter-spacing="2"><textPath href="#bottom" startOffset="50%" text-anchor="middle">${TIRE.dot.text}</textPath></text>`,
  );
})();

/** A line of monospaced text exactly where the scene put it. */
function monoText(
  line: { text: string; x: number; baseline: number; size: number; letterSpacing: number },
  fill: string,
) {
  return `<text x="${line.x}" y="${line.baseline}" font-family="DejaVu Sans Mono" font-weight="bold" font-size="${line.size}" letter-spacing="${line.letterSpacing}" fill="${fill}">${line.text}</text>`;
}

/** The door-jamb sticker: heading, the VIN, a bar code and the maker's line, on a grey door frame. */
const VIN_SVG = (() => {
  const bars = Array.from(SAMPLE_VEHICLE.vin).flatMap((char, i) => {
    const code = char.charCodeAt(0);
    return [0, 1, 2].map((k) => {
      const width = 1 + ((code >> k) & 1) * 2;
      return `<rect x="${64 + i * 23 + k * 7}" y="186" width="${width}" height="44" fill="#111"/>`;
    });
  });
  return svg(
    VIN_LABEL.width,
    VIN_LABEL.height,
    `<rect width="100%" height="100%" fill="#7d7f83"/><rect x="0" y="0" width="22" height="100%" fill="#5f6165"/>
    <rect x="40" y="60" width="560" height="210" rx="10" fill="#f4f4ef" stroke="#c9c9c2" stroke-width="2"/>
    <text x="64" y="104" font-family="DejaVu Sans" font-size="16" fill="#333">${VIN_LABEL.heading}</text>
    ${monoText(VIN_LABEL.vin, '#111')}
    ${bars.join('')}
    <text x="64" y="256" font-family="DejaVu Sans" font-size="14" fill="#444">${VIN_LABEL.footer}</text>`,
  );
})();

/** The registration certificate: a title band, then one label and value per line. */
const REGISTRATION_SVG = svg(
  REGISTRATION.width,
  REGISTRATION.height,
  `<rect width="100%" height="100%" fill="#e9e4d6"/>
  <rect x="16" y="16" width="768" height="528" fill="#f6f2e6" stroke="#8c7f62" stroke-width="2"/>
  <rect x="16" y="16" width="768" height="64" fill="#2f4b6e"/>
  <text x="40" y="58" font-family="DejaVu Sans" font-weight="bold" font-size="24" fill="#fff">${REGISTRATION.title}</text>
  ${REGISTRATION.fields
    .map(
      (field) =>
        `<text x="40" y="${field.labelBaseline}" font-family="DejaVu Sans" font-size="17" fill="#5a5a5a">${field.label}</text>
  ${monoText(field.line, '#111')}
  <rect x="40" y="${field.labelBaseline + 12}" width="720" height="1" fill="#d3cbb5"/>`,
    )
    .join('')}`,
);

/** The walk-around as one wide strip (front, side, rear, other side), panned across by ffmpeg. */
const STRIP_SVG = (() => {
  const side = LAYOUTS.stripSide;
  const other = LAYOUTS.stripOtherSide;
  return svg(
    WALKAROUND.strip.width,
    WALKAROUND.strip.height,
    `${SKY_AND_ROAD}${carEnd(LAYOUTS.stripFront, 'front')}${carSide(side, [doorScratch(side.x, side.belt, side.length, side.length * 0.004)])}${carEnd(LAYOUTS.stripRear, 'rear')}<g transform="translate(${STRIP_MIRROR_AXIS} 0) scale(-1 1)">${carSide(other, [doorScratch(other.x, other.belt, other.length, other.length * 0.004)])}</g>`,
  );
})();

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'ais-samples-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const shoot = async (markup: string, width: number, height: number, path: string, type: 'jpeg' | 'png') => {
      const page = await browser.newPage({ viewport: { width, height } });
      await page.setContent(`<html><body style="margin:0">${markup}</body></html>`);
      await page.screenshot({ path, type, ...(type === 'jpeg' ? { quality: 82 } : {}) });
      await page.close();
    };
    for (const [sample, markup] of [
      [CAR, CAR_SVG],
      [DAMAGED, DAMAGED_SVG],
      [TIRE, TIRE_SVG],
      [VIN_LABEL, VIN_SVG],
      [REGISTRATION, REGISTRATION_SVG],
    ] as const)
      await shoot(markup, sample.width, sample.height, join(OUT, sample.file), 'jpeg');
    writeFileSync(join(OUT, ENGINE.file), engineRecording(ENGINE));
    const strip = join(work, 'strip.png');
    await shoot(STRIP_SVG, WALKAROUND.strip.width, WALKAROUND.strip.height, strip, 'png');
    // 6 s at 15 fps, 640x360, panning left to right across the strip
    execFileSync(
      'ffmpeg',
      [
        ...['-y', '-loglevel', 'error', '-loop', '1', '-i', strip, '-t', '6', '-r', '15'],
        ...[
          '-vf',
          'crop=640:360:x=(iw-640)*t/6:y=0',
          '-c:v',
          'libx264',
          '-preset',
          'veryslow',
          '-crf',
          '30',
          '-pix_fmt',
          'yuv420p',
          '-movflags',
          '+faststart',
        ],
        join(OUT, WALKAROUND.file),
      ],
      { stdio: 'inherit' },
    );
  } finally {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`samples written to ${OUT}`);
}

await main();
