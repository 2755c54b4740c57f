/** A repository path in a code span: `common/src/...`, `server/test/...`, `docs/rtp.md`, ... */
const PATH = "`(?:common|server|client|docs|bench|loadtest|deploy)/[^`\\s]*`";

/**
 * The specification as a player reads it: the document is also the developers' (it names the source
 * files each rule lives in), and those names mean nothing on the page. A parenthesis that names a file
 * goes with it; a file named elsewhere in a sentence is left out.
 */
export function withoutSourcePaths(markdown: string): string {
  const inParens = new RegExp(`[ \\t]*\\n?[ \\t]*\\((?:[^()\`]|\`[^\`]*\`)*${PATH}(?:[^()\`]|\`[^\`]*\`)*\\)`, "g");
  return markdown.replace(inParens, "").replace(new RegExp(`\\s*${PATH}`, "g"), "");
}
