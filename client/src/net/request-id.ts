/**
 * A request id for a room message: letters, digits and '-' (the server accepts 8–64 of
 * [A-Za-z0-9_:-]). Made from getRandomValues, which, unlike randomUUID, also exists on plain-http pages.
 */
export function newRequestId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${prefix.replace(/[^A-Za-z0-9_:-]/g, "-").slice(0, 30)}-${hex}`;
}
