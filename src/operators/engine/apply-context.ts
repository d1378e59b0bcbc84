/** What an operator run knows besides the document and the operator itself. */
export interface ApplyContext {
  /** IANA time zone used to read wall times without a zone and to format dates (the caller defaults to `UTC`). */
  readonly timeZone: string;
  /** repository type of the view named in the request, lower case, if any */
  readonly applicationType?: string | undefined;
  /**
   * What becomes of a value an operator cannot transform (a date DATE_NORMALIZATION_OP cannot read):
   * `DROP` (the default) removes it, SAGE's behaviour for a posted document (`POST /operators/apply`);
   * `KEEP` leaves it as it is, for a curation job, where dropping would delete a repository's data.
   * Either way the run's `warnings` name the value.
   */
  readonly untransformable?: UntransformablePolicy | undefined;
}

export type UntransformablePolicy = 'DROP' | 'KEEP';

/**
 * Told by an operator of a value it could not transform; answers the value to put in its place (the value
 * itself under `KEEP`) or `undefined` to drop it (`DROP`).
 */
export type Untransformable = (value: string) => string | undefined;

/** Drops every value it is told of: an operator called without the engine (unit tests) behaves as SAGE. */
export const DROP_UNTRANSFORMABLE: Untransformable = () => undefined;
