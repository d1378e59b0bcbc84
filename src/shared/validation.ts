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

/** Length and presence rules of one string property, with the reference's messages. */
export interface StringRule {
  readonly property: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: RegExp;
  readonly messages: {
    readonly required: string;
    readonly minlength?: string;
    readonly maxlength?: string;
    readonly pattern?: string;
    readonly type: string;
  };
}

/**
 * Checks one property of an untrusted body against its rule. Returns the string when it is usable.
 * Lengths count UTF-16 code units, like the Java originals.
 */
export function checkString(
  body: Readonly<Record<string, unknown>>,
  rule: StringRule,
  collector: ValidationCollector,
): string | undefined {
  const value = body[rule.property];
  if (value === undefined || value === null) {
    collector.add(rule.property, 'required', rule.messages.required);
    return undefined;
  }
  if (typeof value !== 'string') {
    collector.add(rule.property, 'type', rule.messages.type);
    return undefined;
  }
  let ok = true;
  if (rule.minLength !== undefined && value.length < rule.minLength) {
    collector.add(rule.property, 'minlength', rule.messages.minlength ?? rule.messages.required);
    ok = false;
  }
  if (rule.maxLength !== undefined && value.length > rule.maxLength) {
    collector.add(rule.property, 'maxlength', rule.messages.maxlength ?? rule.messages.required);
    ok = false;
  }
  if (rule.pattern !== undefined && !rule.pattern.test(value)) {
    collector.add(rule.property, 'pattern', rule.messages.pattern ?? rule.messages.required);
    ok = false;
  }
  return ok ? value : undefined;
}

export type IdCheck = { kind: 'absent' } | { kind: 'valid'; id: number } | { kind: 'invalid' };

/** An `id` must be null/absent or a positive safe integer; anything else is a `type` failure. */
export function checkId(body: Readonly<Record<string, unknown>>, collector: ValidationCollector): IdCheck {
  const id = body.id;
  if (id === undefined || id === null) return { kind: 'absent' };
  if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return { kind: 'valid', id };
  collector.add('id', 'type', 'An id must be a positive integer');
  return { kind: 'invalid' };
}
