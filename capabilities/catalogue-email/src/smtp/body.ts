import { ToolError } from "@selu-catalogue/kit";
import { htmlToText } from "../html-text.js";

export interface BodyArgs {
  text?: string | undefined;
  html?: string | undefined;
  markdown?: string | undefined;
}

/**
 * The message body as text and HTML parts: markdown becomes HTML (the markdown itself is the text
 * part, readable as is); HTML alone gets a text part made from it, so every mail has one.
 */
export async function composeBody(args: BodyArgs): Promise<{ text: string; html?: string }> {
  if (args.markdown !== undefined) {
    if (args.text !== undefined || args.html !== undefined) {
      throw new ToolError("markdown: give the body either as markdown or as text and/or html, not both");
    }
    const { marked } = await import("marked");
    return { text: args.markdown, html: await marked.parse(args.markdown, { gfm: true, breaks: false }) };
  }
  if (args.text === undefined && args.html === undefined) {
    throw new ToolError("text, html, markdown: give the body as text and/or html, or as markdown");
  }
  const text = args.text ?? (await htmlToText(args.html!));
  return args.html === undefined ? { text } : { text, html: args.html };
}
