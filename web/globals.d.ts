// globals.d.ts — for the type check only (tsconfig.json): the one Node
// global web/ reads, to tell Node from a browser. Never bundled.
declare var process: { versions?: { node?: string } } | undefined;
