import type { PasswordCipher } from '../repository-views/password-cipher.js';
import { sendEmail, type SmtpSettings } from './email-sender.js';
import type { Notice } from './notification.js';
import type { ClaimedDelivery, NotificationStore } from './notification.store.js';
import { emailOf } from './notice.js';
import { failed, type SendOutcome } from './send-outcome.js';
import { sendWebhook } from './webhook-sender.js';

export interface DeliveryWorkerSettings {
  /** How often due deliveries are looked for (a delivery created in this process wakes the worker at once). */
  readonly pollMs: number;
  /** The bound of one webhook exchange or one SMTP stage. */
  readonly timeoutMs: number;
  /** The waits after the 1st, 2nd, … failed attempt; after the last, the delivery is FAILED. */
  readonly retryDelaysMs: readonly number[];
  /** Which instance holds a lease (the instance's id). */
  readonly owner: string;
  /** The most deliveries taken at once. */
  readonly batch: number;
}

export interface DeliveryWorkerDependencies {
  readonly store: NotificationStore;
  readonly cipher: PasswordCipher;
  readonly smtp: Omit<SmtpSettings, 'timeoutMs'>;
  readonly now: () => number;
  readonly warn: (message: string) => void;
}

/**
 * Sends due deliveries (DECISIONS.md §15). Each is claimed with a lease first — a conditional UPDATE, so of
 * two instances exactly one holds it — then sent, and the attempt is recorded with the delivery's next
 * state: DELIVERED, PENDING again after the next wait of `retryDelaysMs`, or FAILED once they are spent. A
 * worker that dies mid-send leaves a lease that expires; another instance then tries again.
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly deps: DeliveryWorkerDependencies,
    private readonly settings: DeliveryWorkerSettings,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Looks for due deliveries now (one was just created here). */
  wake(): void {
    if (this.stopped) return;
    if (this.running !== undefined) this.again = true;
    else this.schedule(0);
  }

  /** Sends one delivery now, once, without retries (a test notice); false when another worker holds it. */
  async sendNow(deliveryId: number): Promise<boolean> {
    const [claimed] = await this.claim(deliveryId);
    if (claimed === undefined) return false;
    await this.attempt(claimed, false);
    return true;
  }

  /** One pass: claims what is due and sends it; answers how many were attempted. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((delivery) => this.attempt(delivery, true)));
    return claimed.length;
  }

  private claim(onlyId?: number): Promise<ClaimedDelivery[]> {
    const { settings } = this;
    // Long enough for one send and its record; an instance that died lets it expire.
    const leaseMs = settings.timeoutMs * 2 + 5_000;
    return this.deps.store.claimDue(settings.owner, this.deps.now(), leaseMs, settings.batch, onlyId);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.loop().finally(() => {
        this.running = undefined;
        if (!this.stopped) this.schedule(this.again ? 0 : this.settings.pollMs);
        this.again = false;
      });
    }, delayMs);
    this.timer.unref();
  }

  private async loop(): Promise<void> {
    try {
      // A full batch may mean more are due: keep going until a pass finds fewer.
      while (!this.stopped && (await this.runOnce()) >= this.settings.batch);
    } catch (error) {
      this.deps.warn(`Notification deliveries could not be read: ${messageOf(error)}`);
    }
  }

  private async attempt(delivery: ClaimedDelivery, retry: boolean): Promise<void> {
    const { deps, settings } = this;
    const attempted = deps.now();
    const started = performance.now();
    let outcome: SendOutcome;
    try {
      outcome = await this.send(delivery);
    } catch (error) {
      outcome = failed(`The notice could not be sent: ${messageOf(error)}`);
    }
    const durationMs = Math.max(0, Math.round(performance.now() - started));
    const attempts = delivery.attempts + 1;
    const wait = retry ? settings.retryDelaysMs[attempts - 1] : undefined;
    const state = outcome.delivered ? 'DELIVERED' : wait === undefined ? 'FAILED' : 'PENDING';
    const recorded = await deps.store.recordAttempt(delivery.id, settings.owner, {
      attempt: {
        attempted,
        outcome: outcome.delivered ? 'DELIVERED' : 'FAILED',
        status: outcome.status,
        response: outcome.response,
        error: outcome.error,
        durationMs,
      },
      state,
      nextAttempt: deps.now() + (wait ?? 0),
    });
    if (recorded && state === 'FAILED' && retry)
      deps.warn(
        `Notification delivery ${delivery.id} to target ${delivery.target.id} failed after ${attempts} attempt(s): ${outcome.error ?? ''}`,
      );
  }

  private async send(delivery: ClaimedDelivery): Promise<SendOutcome> {
    const { target } = delivery;
    if (target.kind === 'WEBHOOK') {
      if (target.url === null || target.secret === null)
        return failed('The webhook target has no URL or secret');
      const secret = this.deps.cipher.decrypt(target.secret);
      return sendWebhook(target.url, secret, delivery.payload, this.settings.timeoutMs);
    }
    if (target.address === null) return failed('The e-mail target has no address');
    const { subject, text } = emailOf(JSON.parse(delivery.payload) as Notice);
    return sendEmail(
      { ...this.deps.smtp, timeoutMs: this.settings.timeoutMs },
      { to: target.address, subject, text },
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
