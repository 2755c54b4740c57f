/** Pages that work without a player (no sign-in at boot): the verifier and the fairness specification. */
export const STANDALONE_PAGES = ["/verify", "/fairness"] as const;

export const isStandalonePage = (path: string): boolean => (STANDALONE_PAGES as readonly string[]).includes(path.replace(/\/+$/, ""));
