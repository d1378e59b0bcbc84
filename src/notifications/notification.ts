/**
 * Notifications (issue 31, DECISIONS.md §15): targets an administrator sets up — a webhook or an e-mail
 * address — and the deliveries made to them when a curation job ends or the audit chain is found broken.
 * Times are epoch milliseconds.
 */
export const TARGET_KINDS = ['WEBHOOK', 'EMAIL'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

export const NOTIFICATION_EVENTS = [
  'JOB_FAILED',
  'JOB_COMPLETED',
  'FIXITY_FAILED',
  'AUDIT_CHAIN_BROKEN',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** The interface's NotificationTarget: never the secret (only the creation's answer carries it). */
export interface NotificationTarget {
  readonly id: number;
  readonly name: string;
  readonly kind: TargetKind;
  /** WEBHOOK: where notices are POSTed; null for EMAIL. */
  readonly url: string | null;
  /** EMAIL: whom notices are sent to; null for WEBHOOK. */
  readonly address: string | null;
  readonly events: readonly NotificationEvent[];
  /** Only this view's jobs; null: every view's. */
  readonly repositoryViewId: number | null;
  readonly createdBy: number;
  readonly created: number;
}

/** What a target is made or changed from (the body of POST/PUT, after its checks). */
export interface TargetInput {
  readonly name: string;
  readonly kind: TargetKind;
  readonly url: string | null;
  readonly address: string | null;
  readonly events: readonly NotificationEvent[];
  readonly repositoryViewId: number | null;
}

export const DELIVERY_STATES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface DeliveryAttempt {
  readonly id: number;
  readonly attempted: number;
  readonly outcome: 'DELIVERED' | 'FAILED';
  /** WEBHOOK: the HTTP status answered (null when none was: timeout, refused connection). */
  readonly status: number | null;
  /** EMAIL: the SMTP server's answer. */
  readonly response: string | null;
  readonly error: string | null;
  readonly durationMs: number;
}

export interface Delivery {
  readonly id: number;
  readonly targetId: number;
  readonly subjectKey: string;
  /** TEST: a notice sent by POST /notification-target/{id}/test. */
  readonly event: NotificationEvent | 'TEST';
  readonly state: DeliveryState;
  readonly attempts: readonly DeliveryAttempt[];
  readonly nextAttempt: number | null;
  readonly created: number;
  readonly finished: number | null;
}

/** One failed resource a notice names (FIXITY: the binary and its status). */
export interface FailedResource {
  readonly contextUri: string;
  readonly status: string;
  readonly error: string | null;
}

/**
 * What a notice says (the webhook's body; the e-mail is written from it): `job` is the CurationJob (null for
 * AUDIT_CHAIN_BROKEN), `summary` a title, the outcome, the counts, the first failed resources and a link.
 */
export interface Notice {
  readonly event: NotificationEvent | 'TEST';
  readonly job: Readonly<Record<string, unknown>> | null;
  readonly summary: NoticeSummary;
}

export interface NoticeSummary {
  readonly title: string;
  readonly outcome: string;
  readonly viewName: string | null;
  readonly counts: {
    readonly total: number;
    readonly done: number;
    readonly changed: number;
    readonly failed: number;
  } | null;
  readonly failedResources: readonly FailedResource[];
  /** How many failed resources are not listed (the list is capped). */
  readonly moreFailed: number;
  readonly link: string;
}
