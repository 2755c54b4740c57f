import hdr from "hdr-histogram-js";
import type { Histogram } from "hdr-histogram-js";

/** Latencies are recorded in microseconds, up to one minute, with three significant digits. */
const newHistogram = (): Histogram =>
  hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
}

/** What a load run observed: latency per message type, errors by code, joins and reconnects. */
export class Stats {
  readonly latency = new Map<string, Histogram>();
  /** Refusals and failures by code (room error codes, `http_429`, `timeout`, …). */
  readonly errors = new Map<string, number>();
  /** Answers counted but not held against the target, such as 404 from REST routes it does not have. */
  readonly tolerated = new Map<string, number>();
  joins = 0;
  joinFailures = 0;
  drops = 0;
  reconnects = 0;
  reconnectFailures = 0;
  /** Interval histograms for live progress; reset by `takeInterval()`. */
  private readonly interval = new Map<string, Histogram>();

  record(type: string, ms: number): void {
    const us = Math.max(1, Math.round(ms * 1000));
    histogramOf(this.latency, type).recordValue(us);
    histogramOf(this.interval, type).recordValue(us);
  }

  error(code: string): void {
    this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
  }

  tolerate(code: string): void {
    this.tolerated.set(code, (this.tolerated.get(code) ?? 0) + 1);
  }

  count(type: string): number {
    return this.latency.get(type)?.totalCount ?? 0;
  }

  get errorCount(): number {
    let n = 0;
    for (const v of this.errors.values()) n += v;
    return n;
  }

  summary(type: string, from: Map<string, Histogram> = this.latency): LatencySummary | undefined {
    const h = from.get(type);
    return h ? summarise(h) : undefined;
  }

  /** The histograms recorded since the previous call (compressed), for live progress across processes. */
  takeInterval(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [type, h] of this.interval) {
      if (h.totalCount > 0) out[type] = hdr.encodeIntoCompressedBase64(h);
      h.reset();
    }
    return out;
  }

  /** Forgets everything recorded so far (the measured window starts now). */
  reset(): void {
    for (const h of this.latency.values()) h.reset();
    for (const h of this.interval.values()) h.reset();
    this.errors.clear();
    this.tolerated.clear();
    this.joins = this.joinFailures = this.drops = this.reconnects = this.reconnectFailures = 0;
  }

  /** A plain-JSON form (histograms compressed) to send from a load process to its parent. */
  toJSON(): StatsJson {
    return {
      latency: Object.fromEntries([...this.latency].map(([k, h]) => [k, hdr.encodeIntoCompressedBase64(h)])),
      errors: Object.fromEntries(this.errors),
      tolerated: Object.fromEntries(this.tolerated),
      joins: this.joins,
      joinFailures: this.joinFailures,
      drops: this.drops,
      reconnects: this.reconnects,
      reconnectFailures: this.reconnectFailures,
    };
  }

  /** Adds another run's figures (from `toJSON()`) into this one. */
  merge(other: StatsJson): this {
    for (const [k, encoded] of Object.entries(other.latency)) histogramOf(this.latency, k).add(hdr.decodeFromCompressedBase64(encoded));
    for (const [k, v] of Object.entries(other.errors)) this.errors.set(k, (this.errors.get(k) ?? 0) + v);
    for (const [k, v] of Object.entries(other.tolerated)) this.tolerated.set(k, (this.tolerated.get(k) ?? 0) + v);
    this.joins += other.joins;
    this.joinFailures += other.joinFailures;
    this.drops += other.drops;
    this.reconnects += other.reconnects;
    this.reconnectFailures += other.reconnectFailures;
    return this;
  }
}

export interface StatsJson {
  latency: Record<string, string>;
  errors: Record<string, number>;
  tolerated: Record<string, number>;
  joins: number;
  joinFailures: number;
  drops: number;
  reconnects: number;
  reconnectFailures: number;
}

/** Summaries of interval histograms gathered from several processes. */
export function summariseIntervals(parts: Record<string, string>[]): Map<string, LatencySummary> {
  const merged = new Map<string, Histogram>();
  for (const part of parts)
    for (const [type, encoded] of Object.entries(part)) histogramOf(merged, type).add(hdr.decodeFromCompressedBase64(encoded));
  return new Map([...merged].map(([type, h]) => [type, summarise(h)]));
}

function histogramOf(map: Map<string, Histogram>, type: string): Histogram {
  let h = map.get(type);
  if (!h) {
    h = newHistogram();
    map.set(type, h);
  }
  return h;
}

function summarise(h: Histogram): LatencySummary {
  const ms = (us: number) => us / 1000;
  return {
    count: h.totalCount,
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p99: ms(h.getValueAtPercentile(99)),
    p999: ms(h.getValueAtPercentile(99.9)),
    max: ms(h.maxValue),
    mean: ms(h.mean),
  };
}
