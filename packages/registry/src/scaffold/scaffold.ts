/** Scaffolds `capabilities/<id>/`; returns the files created. */
export function scaffoldCapability(_root: string, _id: string): string[] {
  throw new Error("not implemented yet");
}
