import { createHash } from "node:crypto";
import { attachments, defineCapability, tool } from "@selu-catalogue/kit";
import { z } from "zod";

/** The example capability: the smallest tour of the kit (a result, an output artifact, input artifacts). */
export default defineCapability({
  id: "catalogue-example",
  // The manifest's sharing.max_concurrent; 4 more calls wait up to 30 s, past that a call is refused.
  // 8 MiB of artifacts: with 8 calls of 1 MB each in flight and V8 freeing buffers lazily, the kit's
  // default 16 MiB brought a burst of 500 calls to ~133 of the container's 128 MB.
  limits: { calls: { max: 8, maxWaiting: 4 }, artifactBudgetBytes: 8 * 1024 * 1024 },
  tools: {
    echo: tool({
      description: "Repeats the given text back. Use it to check that the capability answers.",
      input: z.object({ text: z.string().min(1).max(10_000).describe("Text to repeat") }),
      policy: "allow",
      run: ({ text }) => ({ text }),
    }),
    make_text_file: tool({
      description: "Saves text as a UTF-8 .txt file and returns it as an artifact the user can download or attach.",
      input: z.object({
        filename: z
          .string()
          .regex(/^[\w][\w .-]{0,99}\.txt$/, "expected a plain file name ending in .txt, e.g. notes.txt")
          .describe("File name, e.g. notes.txt"),
        text: z.string().min(1).max(1_000_000).describe("The file's content"),
      }),
      policy: "allow",
      // Not terminal: Selu would show the user this JSON result verbatim as the whole reply and end the turn
      // (before a follow-up such as emailing the file). The model answers instead; the file is attached anyway.
      terminalOnSuccess: false,
      async run({ filename, text }, ctx) {
        const artifact = await ctx.artifacts.put(Buffer.from(text, "utf8"), { filename, mimeType: "text/plain; charset=utf-8" });
        return { ok: true, artifact, size_bytes: Buffer.byteLength(text) };
      },
    }),
    describe_files: tool({
      description: "Reports the name, type, size and SHA-256 of each attached file.",
      input: z.object({ attachments: attachments({ description: "Files to describe", min: 1, max: 10 }) }),
      policy: "allow",
      run({ attachments: files }, ctx) {
        return {
          files: files.map((attachment, i) => {
            const file = ctx.artifacts.read(attachment, `attachments[${i}]`);
            const sha256 = createHash("sha256").update(file.bytes()).digest("hex");
            return { filename: file.filename, mime_type: file.mimeType, size_bytes: file.size, sha256 };
          }),
        };
      },
    }),
  },
});
