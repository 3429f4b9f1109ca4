// Selu truncates a tool result past ~48 KiB in the model's context, so lists and strings that come
// from other people's mail (a newsletter to 500 recipients, a 998-character subject) are capped here.

/** The first `max` entries, and one "… and N more" entry when there were more. */
export function capList(list: readonly string[], max: number): string[] {
  return list.length <= max ? [...list] : [...list.slice(0, max), `… and ${list.length - max} more`];
}

/** The text cut to `max` characters with an ellipsis when longer. */
export function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
