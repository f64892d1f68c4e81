// What a page hands back when drawn: its title, the trail to it, its content, the live topics
// that move it, and a note for the status line.
export interface Drawn {
  title: string;
  crumbs: Node[];
  body: Node[];
  /** The live-event topics after which the page is read again (none: it stays as drawn). */
  topics: string[];
  /** Said beside the connection state, e.g. "quiet: every rank settled" (when it is known). */
  note: string | null | Promise<string | null>;
}

export type Draw = (subject: string) => Promise<Drawn>;
