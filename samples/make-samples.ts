import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

/**
 * `npm run samples:make`: draws the sample inputs the README uses (samples/README.md) as SVG
 * scenes, photographs them with Debian's chromium and encodes the walk-around with Debian's
 * ffmpeg. Nothing is downloaded; the output is deterministic up to the encoders' versions.
 */
const OUT = resolve(import.meta.dirname);
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const PLATE = 'AIS 24 PL';

const SKY_AND_ROAD = `
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#9cc7ea"/><stop offset="1" stop-color="#e3eef6"/></linearGradient>
    <linearGradient id="paint" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#c7352b"/><stop offset="1" stop-color="#8e1f18"/></linearGradient>
    <linearGradient id="glass" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3a4a5a"/><stop offset="1" stop-color="#7d92a6"/></linearGradient>
  </defs>
  <rect width="100%" height="62%" fill="url(#sky)"/>
  <rect y="62%" width="100%" height="38%" fill="#6d6f72"/>
  <rect y="62%" width="100%" height="1.2%" fill="#8a8c8f"/>`;

function plate(x: number, y: number, width: number): string {
  const height = width * 0.22;
  return `<g>
    <rect x="${x}" y="${y}" width="${width}" height="${height}" rx="${height * 0.12}" fill="#f7f7f2" stroke="#111" stroke-width="${width * 0.012}"/>
    <rect x="${x + width * 0.012}" y="${y + width * 0.012}" width="${width * 0.07}" height="${height - width * 0.024}" fill="#1c3f9e"/>
    <text x="${x + width * 0.54}" y="${y + height * 0.76}" font-family="DejaVu Sans Mono" font-weight="bold" font-size="${height * 0.66}" text-anchor="middle" fill="#111" letter-spacing="${width * 0.004}">${PLATE}</text>
  </g>`;
}

function wheel(cx: number, cy: number, r: number): string {
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#1d1d1f"/><circle cx="${cx}" cy="${cy}" r="${r * 0.58}" fill="#b9bcc0"/><circle cx="${cx}" cy="${cy}" r="${r * 0.16}" fill="#55585c"/>
    ${[0, 72, 144, 216, 288].map((a) => `<rect x="${cx - r * 0.05}" y="${cy - r * 0.55}" width="${r * 0.1}" height="${r * 0.42}" fill="#8b8e92" transform="rotate(${a} ${cx} ${cy})"/>`).join('')}`;
}

/**
 * The car seen from one end, centred on `cx`: shadow, tyres, cabin, glass and body are the same
 * from the front and from behind; `details(x, w, body)` draws what differs (lamps, grille, plate).
 */
function carEnd(
  cx: number,
  ground: number,
  width: number,
  cabin: { base: number; top: number; glass: number },
  details: (x: number, w: number, body: number) => string,
): string {
  const w = width;
  const x = cx - w / 2;
  const body = ground - w * 0.36;
  const { base, top, glass } = cabin;
  return `<g>
    <ellipse cx="${cx}" cy="${ground + w * 0.01}" rx="${w * 0.56}" ry="${w * 0.035}" fill="#000" opacity=".25"/>
    <rect x="${x + w * 0.02}" y="${ground - w * 0.1}" width="${w * 0.13}" height="${w * 0.12}" rx="${w * 0.02}" fill="#1d1d1f"/>
    <rect x="${x + w * 0.85}" y="${ground - w * 0.1}" width="${w * 0.13}" height="${w * 0.12}" rx="${w * 0.02}" fill="#1d1d1f"/>
    <path d="M${x + w * base} ${body} L${x + w * (base + 0.1)} ${body - w * top} Q${cx} ${body - w * (top + 0.04)} ${x + w * (0.9 - base)} ${body - w * top} L${x + w * (1 - base)} ${body} Z" fill="url(#paint)"/>
    <path d="M${x + w * (base + 0.06)} ${body - w * glass} L${x + w * (base + 0.12)} ${body - w * (top - 0.04)} Q${cx} ${body - w * (top - 0.01)} ${x + w * (0.88 - base)} ${body - w * (top - 0.04)} L${x + w * (0.94 - base)} ${body - w * glass} Z" fill="url(#glass)"/>
    <rect x="${x}" y="${body}" width="${w}" height="${w * 0.28}" rx="${w * 0.05}" fill="url(#paint)"/>
    <rect x="${x + w * 0.02}" y="${body + w * 0.17}" width="${w * 0.96}" height="${w * 0.1}" rx="${w * 0.03}" fill="#2b2b2e"/>
    ${details(x, w, body)}
  </g>`;
}

/** The car from the front, centred on `cx`, plate readable. */
function carFront(cx: number, ground: number, width: number): string {
  return carEnd(
    cx,
    ground,
    width,
    { base: 0.16, top: 0.2, glass: 0.01 },
    (x, w, body) => `
    <rect x="${x + w * 0.06}" y="${body + w * 0.05}" width="${w * 0.18}" height="${w * 0.065}" rx="${w * 0.02}" fill="#f4f1d0" stroke="#333" stroke-width="2"/>
    <rect x="${x + w * 0.76}" y="${body + w * 0.05}" width="${w * 0.18}" height="${w * 0.065}" rx="${w * 0.02}" fill="#f4f1d0" stroke="#333" stroke-width="2"/>
    <rect x="${x + w * 0.3}" y="${body + w * 0.05}" width="${w * 0.4}" height="${w * 0.07}" rx="${w * 0.015}" fill="#2a2a2d"/>
    ${[1, 2, 3, 4].map((i) => `<rect x="${x + w * 0.31}" y="${body + w * 0.05 + i * w * 0.013}" width="${w * 0.38}" height="${w * 0.004}" fill="#5b5b60"/>`).join('')}
    ${plate(x + w * 0.31, body + w * 0.168, w * 0.38)}`,
  );
}

/** The car from its side, front to the right. */
function carSide(x: number, ground: number, length: number): string {
  const l = length;
  const sill = ground - l * 0.09;
  const belt = ground - l * 0.26;
  const roof = ground - l * 0.4;
  return `<g>
    <ellipse cx="${x + l / 2}" cy="${ground + l * 0.01}" rx="${l * 0.52}" ry="${l * 0.03}" fill="#000" opacity=".25"/>
    <path d="M${x} ${sill} L${x} ${belt + l * 0.03} Q${x} ${belt} ${x + l * 0.04} ${belt} L${x + l * 0.2} ${belt} L${x + l * 0.32} ${roof} L${x + l * 0.64} ${roof} L${x + l * 0.76} ${belt} L${x + l * 0.95} ${belt + l * 0.02} Q${x + l} ${belt + l * 0.04} ${x + l} ${belt + l * 0.09} L${x + l} ${sill} Z" fill="url(#paint)"/>
    <path d="M${x + l * 0.23} ${belt - l * 0.005} L${x + l * 0.33} ${roof + l * 0.02} L${x + l * 0.47} ${roof + l * 0.02} L${x + l * 0.47} ${belt - l * 0.005} Z" fill="url(#glass)"/>
    <path d="M${x + l * 0.49} ${belt - l * 0.005} L${x + l * 0.49} ${roof + l * 0.02} L${x + l * 0.63} ${roof + l * 0.02} L${x + l * 0.73} ${belt - l * 0.005} Z" fill="url(#glass)"/>
    <rect x="${x + l * 0.475}" y="${belt}" width="${l * 0.006}" height="${sill - belt}" fill="#6b1712"/>
    <rect x="${x + l * 0.56}" y="${belt + l * 0.04}" width="${l * 0.05}" height="${l * 0.012}" rx="${l * 0.005}" fill="#d8d8d8"/>
    <rect x="${x + l * 0.33}" y="${belt + l * 0.04}" width="${l * 0.05}" height="${l * 0.012}" rx="${l * 0.005}" fill="#d8d8d8"/>
    <path d="M${x + l * 0.62} ${belt + l * 0.07} l${l * 0.05} ${l * 0.03} l-${l * 0.035} ${l * 0.02} l${l * 0.04} ${l * 0.025}" stroke="#f2f2f2" stroke-width="${l * 0.004}" fill="none" opacity=".8"/>
    <rect x="${x + l * 0.965}" y="${belt + l * 0.04}" width="${l * 0.035}" height="${l * 0.03}" fill="#f4f1d0"/>
    <rect x="${x}" y="${belt + l * 0.04}" width="${l * 0.025}" height="${l * 0.03}" fill="#c0141b"/>
    ${wheel(x + l * 0.2, sill + l * 0.005, l * 0.085)}
    ${wheel(x + l * 0.8, sill + l * 0.005, l * 0.085)}
  </g>`;
}

/** The car from behind, plate readable. */
function carRear(cx: number, ground: number, width: number): string {
  return carEnd(
    cx,
    ground,
    width,
    { base: 0.14, top: 0.22, glass: 0.03 },
    (x, w, body) => `
    <rect x="${x + w * 0.04}" y="${body + w * 0.04}" width="${w * 0.2}" height="${w * 0.06}" rx="${w * 0.015}" fill="#c0141b" stroke="#5a0a0d" stroke-width="2"/>
    <rect x="${x + w * 0.76}" y="${body + w * 0.04}" width="${w * 0.2}" height="${w * 0.06}" rx="${w * 0.015}" fill="#c0141b" stroke="#5a0a0d" stroke-width="2"/>
    ${plate(x + w * 0.31, body + w * 0.06, w * 0.38)}`,
  );
}

function svg(width: number, height: number, content: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${content}</svg>`;
}

/** A street scene: the car from the front, its plate the largest thing in view. */
const CAR = svg(
  800,
  600,
  `${SKY_AND_ROAD}<rect x="40" y="250" width="140" height="120" fill="#cfc6b8"/><rect x="620" y="220" width="160" height="150" fill="#bdb3a3"/>${carFront(400, 520, 560)}`,
);

/** A tyre's sidewall, its size and DOT code written around it. */
const TIRE = (() => {
  const c = 300;
  const arc = (r: number, start: number, end: number) => {
    const point = (angle: number) =>
      `${c + r * Math.cos((angle * Math.PI) / 180)} ${c + r * Math.sin((angle * Math.PI) / 180)}`;
    return `M${point(start)} A${r} ${r} 0 0 1 ${point(end)}`;
  };
  return svg(
    600,
    600,
    `<rect width="600" height="600" fill="#8d8a85"/>
    <defs><path id="top" d="${arc(232, 200, 340)}"/><path id="bottom" d="${arc(232, 30, 150)}"/>
    <radialGradient id="rubber"><stop offset=".55" stop-color="#2b2b2d"/><stop offset=".9" stop-color="#1a1a1b"/><stop offset="1" stop-color="#0e0e0f"/></radialGradient></defs>
    <circle cx="${c}" cy="${c}" r="290" fill="url(#rubber)"/>
    ${Array.from({ length: 60 }, (_, i) => `<rect x="${c - 7}" y="${c - 292}" width="14" height="26" fill="#141415" transform="rotate(${i * 6} ${c} ${c})"/>`).join('')}
    <circle cx="${c}" cy="${c}" r="190" fill="#c4c7cb" stroke="#0e0e0f" stroke-width="10"/>
    ${[0, 60, 120, 180, 240, 300].map((a) => `<path d="M${c - 18} ${c - 40} L${c - 30} ${c - 175} L${c + 30} ${c - 175} L${c + 18} ${c - 40} Z" fill="#8f9398" transform="rotate(${a} ${c} ${c})"/>`).join('')}
    <circle cx="${c}" cy="${c}" r="48" fill="#a8acb1" stroke="#6f7378" stroke-width="4"/>
    <text font-family="DejaVu Sans" font-weight="bold" font-size="40" fill="#e4e4e4" letter-spacing="3"><textPath href="#top" startOffset="50%" text-anchor="middle">205/55 R16 91V</textPath></text>
    <text font-family="DejaVu Sans Mono" font-weight="bold" font-size="26" fill="#d8d8d8" letter-spacing="2"><textPath href="#bottom" startOffset="50%" text-anchor="middle">DOT U2LL LMLR 2423</textPath></text>`,
  );
})();

/** The walk-around as one wide strip (front, side, rear, other side), panned across by ffmpeg. */
const STRIP = svg(
  2560,
  360,
  `${SKY_AND_ROAD}${carFront(320, 320, 330)}${carSide(720, 320, 560)}${carRear(1600, 320, 330)}<g transform="translate(3440 0) scale(-1 1)">${carSide(1000, 320, 560)}</g>`,
);

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
    await shoot(CAR, 800, 600, join(OUT, 'car.jpg'), 'jpeg');
    await shoot(TIRE, 600, 600, join(OUT, 'tire.jpg'), 'jpeg');
    const strip = join(work, 'strip.png');
    await shoot(STRIP, 2560, 360, strip, 'png');
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
        join(OUT, 'walkaround.mp4'),
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
