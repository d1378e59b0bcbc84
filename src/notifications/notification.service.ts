import { randomBytes } from 'node:crypto';
import type { Principal } from '../auth/roles.js';
import type { CurationJob } from '../curation-jobs/curation-job.js';
import type { PasswordCipher } from '../repository-views/password-cipher.js';
import { deleteId, idOf, type CheckedBody } from '../shared/body-check.js';
import { businessMessages as msg } from '../shared/business-messages.js';
import { NotFoundError, ValidationFailedError } from '../shared/errors.js';
import type { ValidationCollector } from '../shared/validation.js';
import type { Delivery, FailedResource, Notice, NotificationTarget, TargetInput } from './notification.js';
import type { NotificationTargetBody } from './notification.api.js';
import type { NewDelivery, NotificationStore } from './notification.store.js';
import { auditNotice, eventsOfJob, jobNotice, MAX_LISTED_FAILURES, testNotice } from './notice.js';
import { targetInputOf } from './target-rules.js';

const ENTITY = 'Notification target';
/** The most deliveries GET …/deliveries answers (newest first). */
const MAX_LISTED_DELIVERIES = 100;

export interface NotificationServiceDependencies {
  readonly store: NotificationStore;
  readonly cipher: PasswordCipher;
  /** The view's name; undefined when there is no such view. */
  readonly viewName: (viewId: number) => Promise<string | undefined>;
  /** The resources a job failed on (the first `limit`) and how many there are. */
  readonly failures: (jobId: number, limit: number) => Promise<{ failures: FailedResource[]; count: number }>;
  /** Told when deliveries were created, so they go out now rather than at the next poll. */
  readonly created: () => void;
  /** Sends a delivery at once, without retries (a test notice). */
  readonly sendNow: (deliveryId: number) => Promise<boolean>;
  readonly publicUrl: string;
  readonly now: () => number;
}

/** A target as created: the webhook's secret, answered this once. */
export type CreatedTarget = NotificationTarget & { readonly secret?: string };

/**
 * Notification targets and their deliveries (DECISIONS.md §15). Only administrators reach these routes
 * (permissions.ts). A job's end and a broken audit chain create at most one delivery per target and
 * subject — the store's unique key — whichever instance sees them, and however many of the target's
 * events they match.
 */
export class NotificationService {
  constructor(private readonly deps: NotificationServiceDependencies) {}

  list(): Promise<NotificationTarget[]> {
    return this.deps.store.listTargets();
  }

  async get(id: number): Promise<NotificationTarget> {
    const target = await this.deps.store.findTarget(id);
    if (target === undefined) throw new NotFoundError(msg.doesNotExist(ENTITY, id));
    return target;
  }

  async create(body: CheckedBody<NotificationTargetBody>, caller: Principal): Promise<CreatedTarget> {
    const { collector } = body;
    if (idOf(body).kind === 'valid') collector.business('CREATE', msg.idOnCreate(ENTITY));
    const input = targetInputOf(body);
    if (input !== undefined) await this.checkView(input, collector);
    if (input === undefined || !collector.isValid) throw new ValidationFailedError(collector.results());
    const secret = input.kind === 'WEBHOOK' ? newSecret() : undefined;
    const target = await this.deps.store.createTarget(input, {
      secret: secret === undefined ? null : this.deps.cipher.encrypt(secret),
      createdBy: caller.userId,
      created: this.deps.now(),
    });
    return secret === undefined ? target : { ...target, secret };
  }

  /** Changes a target; one that becomes a webhook is given a secret, answered this once. */
  async update(body: CheckedBody<NotificationTargetBody>): Promise<CreatedTarget> {
    const { collector } = body;
    const id = idOf(body);
    if (id.kind === 'absent') collector.business('UPDATE', msg.requiresId(ENTITY));
    const existing = id.kind === 'valid' ? await this.deps.store.findTarget(id.id) : undefined;
    if (id.kind === 'valid' && existing === undefined)
      collector.business('UPDATE', msg.doesNotExist(ENTITY, id.id));
    const input = targetInputOf(body);
    if (input !== undefined) await this.checkView(input, collector);
    if (existing === undefined || input === undefined || !collector.isValid)
      throw new ValidationFailedError(collector.results());
    const { store } = this.deps;
    const updated = await store.updateTarget(existing.id, input);
    if (updated === undefined) throw new NotFoundError(msg.doesNotExist(ENTITY, existing.id));
    if (existing.kind === input.kind) return updated;
    const secret = input.kind === 'WEBHOOK' ? newSecret() : undefined;
    await store.setSecret(existing.id, secret === undefined ? null : this.deps.cipher.encrypt(secret));
    return secret === undefined ? updated : { ...updated, secret };
  }

  async delete(body: CheckedBody<{ id?: number | null }>): Promise<void> {
    const id = deleteId(body, ENTITY);
    if (!(await this.deps.store.deleteTarget(id))) {
      body.collector.business('DELETE', msg.doesNotExist(ENTITY, id));
      throw new ValidationFailedError(body.collector.results());
    }
  }

  async deliveries(targetId: number): Promise<Delivery[]> {
    await this.get(targetId);
    return this.deps.store.deliveriesOf(targetId, MAX_LISTED_DELIVERIES);
  }

  /** Sends a test notice to the target now, once; answers the delivery with its attempt. */
  async test(targetId: number): Promise<Delivery> {
    const target = await this.get(targetId);
    const subjectKey = `test/${this.deps.now()}-${randomBytes(6).toString('hex')}`;
    const notice = testNotice(target.name, this.deps.publicUrl);
    const { store } = this.deps;
    await store.createDeliveries(
      [{ targetId, subjectKey, event: 'TEST', payload: JSON.stringify(notice) }],
      this.deps.now(),
    );
    const id = await store.deliveryId(targetId, subjectKey);
    if (id === undefined) throw new NotFoundError(msg.doesNotExist(ENTITY, targetId));
    await this.deps.sendNow(id);
    const [delivery] = await store.deliveriesOf(targetId, 1, id);
    if (delivery === undefined) throw new NotFoundError(msg.doesNotExist(ENTITY, targetId));
    return delivery;
  }

  /**
   * A curation job reached an end (called once its final state is stored): one delivery per matching
   * target — the target's view filter, and the first of the job's events the target wants.
   */
  async jobEnded(job: CurationJob): Promise<number> {
    const events = eventsOfJob(job);
    if (events.length === 0) return 0;
    const targets = (await this.deps.store.listTargets()).filter(
      (target) => target.repositoryViewId === null || target.repositoryViewId === job.repositoryViewId,
    );
    const wanted = targets.flatMap((target) => {
      const event = events.find((candidate) => target.events.includes(candidate));
      return event === undefined ? [] : [{ target, event }];
    });
    if (wanted.length === 0) return 0;
    const viewName = (await this.deps.viewName(job.repositoryViewId)) ?? null;
    const { failures, count } =
      job.progress.failed > 0
        ? await this.deps.failures(job.id, MAX_LISTED_FAILURES)
        : { failures: [], count: 0 };
    return this.createDeliveries(
      wanted.map(({ target, event }) => ({
        targetId: target.id,
        subjectKey: `job/${job.id}`,
        event,
        payload: JSON.stringify(
          jobNotice({ event, job, viewName, failures, failedCount: count, publicUrl: this.deps.publicUrl }),
        ),
      })),
    );
  }

  /** `GET /audit/verify` found the chain broken: once per first broken event, to every target that wants it. */
  async auditChainBroken(firstBrokenId: number, reason: string): Promise<number> {
    const notice: Notice = auditNotice(firstBrokenId, reason, this.deps.publicUrl);
    const targets = (await this.deps.store.listTargets()).filter((target) =>
      target.events.includes('AUDIT_CHAIN_BROKEN'),
    );
    return this.createDeliveries(
      targets.map((target) => ({
        targetId: target.id,
        subjectKey: `audit/${firstBrokenId}`,
        event: 'AUDIT_CHAIN_BROKEN',
        payload: JSON.stringify(notice),
      })),
    );
  }

  private async createDeliveries(deliveries: readonly NewDelivery[]): Promise<number> {
    const created = await this.deps.store.createDeliveries(deliveries, this.deps.now());
    if (created > 0) this.deps.created();
    return created;
  }

  private async checkView(input: TargetInput, collector: ValidationCollector): Promise<void> {
    const viewId = input.repositoryViewId;
    if (viewId !== null && (await this.deps.viewName(viewId)) === undefined)
      collector.add('repositoryViewId', 'exists', msg.doesNotExist('Repository view', viewId));
  }
}

/** 32 random bytes, hex: what the receiver keys its HMAC check with. */
function newSecret(): string {
  return randomBytes(32).toString('hex');
}
