/**
 * How a change of a SPREADSHEET job is named (DECISIONS.md §13): by its sheet row (the header is row 1),
 * so a curator finds it in the spreadsheet. A `+` row names no resource until it is applied: its
 * contextUri is "+" (or its key `+N`), and it reads "New child (row N)". Changes of other kinds have no
 * row and are named by their resource.
 */
export interface ChangeLabel {
  /** "Row 12", or null when the change has no row or the subject already says it. */
  readonly row: string | null;
  /** The resource's IRI, or "New child (row N)". */
  readonly subject: string;
  /** The title of the alert when the change failed. */
  readonly failure: string;
}

/** A `+` row before it is applied: "+" as the API answers it, or its store key "+N". */
export const isNewChild = (contextUri: string): boolean => /^\+\d*$/.test(contextUri);

export function changeLabel(change: { contextUri: string; row: number | null }): ChangeLabel {
  if (change.row === null)
    return { row: null, subject: change.contextUri, failure: 'This resource cannot be mapped' };
  const failure = `Row ${change.row} cannot be imported`;
  if (isNewChild(change.contextUri)) return { row: null, subject: `New child (row ${change.row})`, failure };
  return { row: `Row ${change.row}`, subject: change.contextUri, failure };
}
