import type { Room } from "@colyseus/sdk";

/**
 * Room messages as a hostile client can send them: any msgpack value, including what the SDK's own
 * encoder never produces (-0 as a float, integers past 2^53, binary, undefined, timestamps), so tests
 * can show what the server answers to each.
 */
export type Wire =
  | { t: "nil" }
  | { t: "undefined" }
  | { t: "bool"; v: boolean }
  /** float64, whatever the value: NaN, ±Infinity and -0 included */
  | { t: "float"; v: number }
  /** a 64-bit integer, signed or not */
  | { t: "int64"; v: bigint }
  | { t: "str"; v: string }
  | { t: "bin"; v: Uint8Array }
  | { t: "timestamp"; v: number }
  | { t: "array"; v: Wire[] }
  | { t: "map"; v: [Wire, Wire][] };

/** A plain value as the SDK would send it: objects as maps, numbers as floats, the rest as they are. */
export function wireOf(value: unknown): Wire {
  if (value === null) return { t: "nil" };
  if (value === undefined) return { t: "undefined" };
  if (typeof value === "boolean") return { t: "bool", v: value };
  if (typeof value === "number") return { t: "float", v: value };
  if (typeof value === "bigint") return { t: "int64", v: value };
  if (typeof value === "string") return { t: "str", v: value };
  if (value instanceof Uint8Array) return { t: "bin", v: value };
  if (Array.isArray(value)) return { t: "array", v: value.map(wireOf) };
  return { t: "map", v: Object.entries(value as object).map(([k, v]) => [{ t: "str", v: k }, wireOf(v)] as [Wire, Wire]) };
}

export function encodeWire(w: Wire): Uint8Array {
  const out: number[] = [];
  const u32 = (n: number) => void out.push((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
  const put = (w: Wire): void => {
    switch (w.t) {
      case "nil":
        return void out.push(0xc0);
      case "undefined":
        return void out.push(0xd4, 0x00, 0x00); // fixext 1, type 0: msgpackr's undefined
      case "bool":
        return void out.push(w.v ? 0xc3 : 0xc2);
      case "float": {
        const b = new DataView(new ArrayBuffer(8));
        b.setFloat64(0, w.v);
        return void out.push(0xcb, ...new Uint8Array(b.buffer));
      }
      case "int64": {
        const b = new DataView(new ArrayBuffer(8));
        if (w.v >= 0n) b.setBigUint64(0, BigInt.asUintN(64, w.v));
        else b.setBigInt64(0, BigInt.asIntN(64, w.v));
        return void out.push(w.v >= 0n ? 0xcf : 0xd3, ...new Uint8Array(b.buffer));
      }
      case "str": {
        const bytes = new TextEncoder().encode(w.v);
        out.push(0xdb);
        u32(bytes.length);
        return void out.push(...bytes);
      }
      case "bin":
        out.push(0xc6);
        u32(w.v.length);
        return void out.push(...w.v);
      case "timestamp":
        out.push(0xd6, 0xff); // fixext 4, type -1: a timestamp in seconds
        return u32(w.v >>> 0);
      case "array":
        out.push(0xdd);
        u32(w.v.length);
        return w.v.forEach(put);
      case "map":
        out.push(0xdf);
        u32(w.v.length);
        for (const [k, v] of w.v) {
          put(k);
          put(v);
        }
    }
  };
  put(w);
  return Uint8Array.from(out);
}

/** Sends `payload` (already msgpack) as a room message of `type`, the way the SDK frames `room.send`. */
export function sendRaw(room: Room, type: string, payload: Uint8Array): void {
  const name = new TextEncoder().encode(type);
  if (name.length > 31) throw new Error("message types here are short");
  const frame = new Uint8Array(2 + name.length + payload.length);
  frame[0] = 13; // Protocol.ROOM_DATA
  frame[1] = 0xa0 | name.length;
  frame.set(name, 2);
  frame.set(payload, 2 + name.length);
  (room as unknown as { connection: { send(data: Uint8Array): void } }).connection.send(frame);
}
