/**
 * ValidationResults of interface §2/§7: messages grouped by category (a property name or `business`)
 * and keyed by rule (`required`, `minlength`, `maxlength`, `pattern`, `type`) or business operation.
 */
export type ValidationMessages = Record<string, Record<string, string>>;

export interface ValidationResults {
  valid: boolean;
  messages: ValidationMessages;
}

export type BusinessOperation = 'CREATE' | 'READ' | 'UPDATE' | 'DELETE';

/** Collects every failure of one request so they are reported together (DECISIONS.md §3). */
export class ValidationCollector {
  private readonly messages: ValidationMessages = {};

  add(category: string, key: string, message: string): void {
    // The first message for a (category, key) pair wins, as Weaver's dedupe does.
    const bucket = this.bucketOf(category);
    bucket[key] ??= message;
  }

  private bucketOf(category: string): Record<string, string> {
    return (this.messages[category] ??= {});
  }

  /**
   * Business rules are independent of each other, so a second failure of the same operation is
   * appended to the first ("; ") rather than hidden by it: a POST with an unknown id and a duplicate
   * name reports both (the reference's last-one-wins dropped one).
   */
  business(operation: BusinessOperation, message: string): void {
    const bucket = this.bucketOf('business');
    const previous = bucket[operation];
    if (previous === undefined) bucket[operation] = message;
    else if (!previous.split('; ').includes(message)) bucket[operation] = `${previous}; ${message}`;
  }

  hasCategory(category: string): boolean {
    return category in this.messages;
  }

  /** A property (not a business rule) failed: the body cannot be used as its schema types it. */
  get hasPropertyFailures(): boolean {
    return Object.keys(this.messages).some((category) => category !== 'business');
  }

  get isValid(): boolean {
    return Object.keys(this.messages).length === 0;
  }

  results(): ValidationResults {
    return { valid: this.isValid, messages: this.messages };
  }
}

/** An `id` property after its schema's check (shared/body-check.ts idOf). */
export type IdCheck = { kind: 'absent' } | { kind: 'valid'; id: number } | { kind: 'invalid' };
