/** What an operator run knows besides the document and the operator itself. */
export interface ApplyContext {
  /** IANA time zone used to read wall times without a zone and to format dates (the caller defaults to `UTC`). */
  readonly timeZone: string;
  /** repository type of the view named in the request, lower case, if any */
  readonly applicationType?: string | undefined;
}
