import type { EngineSample } from '../lambdas/sandbox/samples/scenes.js';

/**
 * The engine recording of a scene as a 16-bit mono PCM WAV: one damped thump per firing (cylinders / 2
 * firings per revolution for a four-stroke), a low rumble at the firing frequency, a little hiss, and
 * a sharp metallic click on every firing wherever the scene places a knock. Seeded, so the same scene
 * always gives the same bytes.
 */
export function engineRecording(scene: EngineSample): Uint8Array {
  const { sampleRate, durationSeconds } = scene;
  const samples = Math.round(sampleRate * durationSeconds);
  const firingsPerSecond = (scene.idleRpm / 60) * (scene.cylinders / 2);
  const period = 1 / firingsPerSecond;
  let seed = 0x2545f491;
  const noise = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 0xffffffff - 0.5;
  };
  const knocks = scene.findings.filter((finding) => finding.type === 'knocking');
  const signal = new Float64Array(samples);
  for (let i = 0; i < samples; i++) {
    const t = i / sampleRate;
    const sinceFiring = t % period;
    let value = Math.exp(-sinceFiring * 55) * Math.sin(2 * Math.PI * 85 * sinceFiring);
    value += 0.25 * Math.sin(2 * Math.PI * firingsPerSecond * t);
    value += 0.05 * noise();
    if (knocks.some((knock) => t >= knock.startSeconds && t < knock.endSeconds))
      value += 0.6 * Math.exp(-sinceFiring * 450) * Math.sin(2 * Math.PI * 2300 * sinceFiring);
    signal[i] = value;
  }
  const peak = signal.reduce((max, value) => Math.max(max, Math.abs(value)), 0);
  const wav = new DataView(new ArrayBuffer(44 + samples * 2));
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) wav.setUint8(offset + i, text.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  wav.setUint32(4, 36 + samples * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  wav.setUint32(16, 16, true);
  wav.setUint16(20, 1, true); // PCM
  wav.setUint16(22, 1, true); // mono
  wav.setUint32(24, sampleRate, true);
  wav.setUint32(28, sampleRate * 2, true);
  wav.setUint16(32, 2, true);
  wav.setUint16(34, 16, true);
  ascii(36, 'data');
  wav.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++)
    wav.setInt16(44 + i * 2, Math.round(((signal[i] ?? 0) / peak) * 0.8 * 32_767), true);
  return new Uint8Array(wav.buffer);
}
