// HTML escaping for text put into HTML text or a double- or single-quoted attribute: the five
// characters that could end the text or the attribute, as entities. One table, so the preview's
// pages, the markdown plan's raw-HTML parts and the secret masker (which looks for a secret in
// its escaped form too) agree on what escaped text looks like.

/** `text` with & < > " ' as entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
