// The one output filter for text that came from outside steward (API names, titles and error
// messages, history rows, reports read back): what reaches a terminal or a CI log can neither
// drive the terminal nor the runner. Control characters and bidi overrides are shown as their
// `\uXXXX` escape; a line that would be a GitHub workflow command (first non-blank characters
// `::`, or `##[` anywhere: the runner's two syntaxes) has its first such character escaped the
// same way. In JSON output both escapes are JSON's own, so the data reads back unchanged.

/** C0 controls but newline and tab, DEL, C1 controls (CSI among them), and bidi overrides. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

export function visibleControls(text: string): string {
  return text.replace(CONTROL, escaped);
}

/** No line of `text` is a workflow command the runner would act on. */
export function withoutWorkflowCommands(text: string): string {
  // Most text holds neither (a JSON report has no line starting `::`): looked for first, as a
  // plain search, the multi-line expression runs only over text that may need it (41 ms of a
  // 4,000-policy report's output was that expression finding nothing).
  const lines = text.includes('::') ? text.replace(/^([ \t]*)::/gm, (_, lead: string) => `${lead}${escaped(':')}:`) : text;
  return lines.includes('##[') ? lines.replace(/##\[/g, `##${escaped('[')}`) : lines;
}

/** Both: for lines steward prints that carry outside text (errors, warnings, listings). */
export function printable(text: string): string {
  return withoutWorkflowCommands(visibleControls(text));
}
