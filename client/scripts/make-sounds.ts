/**
 * Writes the product's three sounds as small 16-bit mono WAV files into client/public/sounds/:
 * a click for the Play Now button, a rising jingle for a win and a falling phrase for a loss. They are
 * synthesised here (sine tones with harmonics and envelopes), so there is no third-party audio to
 * license. Run with `npx tsx client/scripts/make-sounds.ts` after changing a sound.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const RATE = 22_050;

interface Note {
  /** Hz */
  freq: number;
  /** start and length in seconds */
  at: number;
  length: number;
  gain: number;
}

/** A soft bell-like tone: fundamental plus two harmonics, 5 ms attack, exponential decay. */
function render(notes: Note[], seconds: number, decay: number): Float32Array {
  const out = new Float32Array(Math.ceil(seconds * RATE));
  for (const n of notes) {
    const start = Math.floor(n.at * RATE);
    const count = Math.floor(n.length * RATE);
    for (let i = 0; i < count && start + i < out.length; i++) {
      const t = i / RATE;
      const attack = Math.min(1, t / 0.005);
      const release = Math.min(1, (count - i) / (0.01 * RATE));
      const env = attack * release * Math.exp(-t * decay);
      const w = 2 * Math.PI * n.freq * t;
      out[start + i]! += n.gain * env * (Math.sin(w) + 0.35 * Math.sin(2 * w) + 0.12 * Math.sin(3 * w));
    }
  }
  return out;
}

function click(): Float32Array {
  const out = new Float32Array(Math.ceil(0.045 * RATE));
  let seed = 7;
  for (let i = 0; i < out.length; i++) {
    const t = i / RATE;
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    const noise = (seed / 0x7fffffff) * 2 - 1;
    out[i] = Math.exp(-t * 140) * (0.5 * Math.sin(2 * Math.PI * 1_800 * t) + 0.25 * noise);
  }
  return out;
}

const win = () =>
  render(
    [523.25, 659.25, 783.99, 1_046.5].map((freq, i) => ({ freq, at: i * 0.09, length: i === 3 ? 0.5 : 0.2, gain: 0.32 })),
    0.8,
    4,
  );

const lose = () =>
  render(
    [392, 329.63, 261.63].map((freq, i) => ({ freq, at: i * 0.16, length: i === 2 ? 0.42 : 0.18, gain: 0.34 })),
    0.8,
    3,
  );

function wav(samples: Float32Array): Buffer {
  const peak = Math.max(...samples.map(Math.abs), 1e-9);
  const scale = Math.min(1, 0.9 / peak);
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => data.writeInt16LE(Math.round(s * scale * 32_767), i * 2));
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8);
  header.write("fmt ", 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "public", "sounds");
for (const [name, samples] of Object.entries({ click: click(), win: win(), lose: lose() })) {
  writeFileSync(join(dir, `${name}.wav`), wav(samples));
  console.log(`${name}.wav ${(samples.length / RATE).toFixed(2)} s`);
}
