// A text matched literally inside a regular expression: its syntax characters escaped. One
// function for the masker, the export's secret stand-ins and a saved plan's id placeholders.

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
