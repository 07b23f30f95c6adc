// HTML escaping for text put into HTML text or a double- or single-quoted attribute: the five
// characters that could end the text or the attribute, as entities. One function, so the preview's
// pages, the markdown plan's raw-HTML parts and the secret masker (which looks for a secret in
// its escaped form too) agree on what escaped text looks like.

/** `text` with & < > " ' as entities. */
export function escapeHtml(text: string): string {
  // A preview escapes every email whole (~50 MB for 1,000 workflows): one pass over the text,
  // copying the runs between special characters, costs far less than a replace callback per match.
  const first = text.search(SPECIAL);
  if (first === -1) return text;
  let out = "";
  let from = 0;
  for (let index = first; index < text.length; index += 1) {
    let entity: string;
    switch (text.charCodeAt(index)) {
      case 38:
        entity = "&amp;";
        break;
      case 60:
        entity = "&lt;";
        break;
      case 62:
        entity = "&gt;";
        break;
      case 34:
        entity = "&quot;";
        break;
      case 39:
        entity = "&#39;";
        break;
      default:
        continue;
    }
    out += text.slice(from, index) + entity;
    from = index + 1;
  }
  return out + text.slice(from);
}

const SPECIAL = /[&<>"']/;
