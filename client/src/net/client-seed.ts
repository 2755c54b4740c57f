import { storage, STORAGE_KEYS } from "../platform/storage";

/** 16 random bytes as 32 hexadecimal characters: printable ASCII without spaces, as a client seed must be. */
export function randomClientSeed(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The client seed this browser made for its player, kept on the device. It is sent with the first join
 * of the casino room, and the server takes it as the first client seed of a seed pair that has never
 * served a bet, so the default seed is the player's own and not one the server picked after its seed.
 * The server keeps whatever the pair has once it was used or rotated (sending it again changes nothing).
 */
export function browserClientSeed(): string {
  const stored = storage.get(STORAGE_KEYS.clientSeed);
  if (stored && /^[0-9a-f]{32}$/.test(stored)) return stored;
  const seed = randomClientSeed();
  storage.set(STORAGE_KEYS.clientSeed, seed);
  return seed;
}
