// How many SMS a text costs: GSM-7 when every character is in the GSM 03.38 basic set or its
// extension (an extension character takes two septets), 160 septets in one message or 153 per
// part; otherwise UCS-2, 70 UTF-16 units in one message or 67 per part (an emoji is two units).
// Parts never split an extension pair or a surrogate pair, as carriers split them.

import type { SmsSegments } from "./types.js";

const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM_EXTENSION = "\f^{}\\[~]|€";

const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

/** Each character's size in its encoding's units, or undefined when the text is not GSM-7. */
function gsmSizes(text: string): number[] | undefined {
  const sizes: number[] = [];
  for (const char of text) {
    if (BASIC.has(char)) sizes.push(1);
    else if (EXTENSION.has(char)) sizes.push(2);
    else return undefined;
  }
  return sizes;
}

/** Parts needed for units of the given sizes, never splitting one unit across two parts. */
function countParts(sizes: number[], single: number, part: number): number {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total === 0) return 0;
  if (total <= single) return 1;
  let parts = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > part) {
      parts += 1;
      used = 0;
    }
    used += size;
  }
  return parts;
}

export function smsSegments(text: string): SmsSegments {
  const gsm = gsmSizes(text);
  if (gsm !== undefined) {
    const characters = gsm.reduce((sum, size) => sum + size, 0);
    return { encoding: "GSM-7", characters, segments: countParts(gsm, 160, 153) };
  }
  const units = [...text].map((char) => char.length);
  const characters = text.length;
  return { encoding: "UCS-2", characters, segments: countParts(units, 70, 67) };
}
