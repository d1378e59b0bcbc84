import { CHANGED, ConfigRecorder, configEntry } from '../audit/config-change.js';
import { isUniqueViolation } from '../db/sql-errors.js';
import type { Principal } from '../auth/roles.js';
import { userEvent } from '../events/change-events.js';
import { NO_EVENTS, type EventBus } from '../events/event-bus.js';
import { deleteId, idOf, type CheckedBody } from '../shared/body-check.js';
import { businessInvalid as invalid, businessMessages as msg } from '../shared/business-messages.js';
import { compareByText } from '../shared/compare.js';
import { ValidationFailedError } from '../shared/errors.js';
import { hashPassword, verifyPassword } from './password.js';
import { ENTITY, normalizeUsername, type User } from './user.js';
import type { NewUserBody, PasswordChangeBody, UserUpdateBody } from './user.schema.js';
import type { UserStore } from './user.store.js';

interface Profile {
  firstName: string;
  lastName: string;
  email: string;
}

type ProfileBody = { [K in keyof Profile]?: string | null };

const LAST_ADMIN_DEMOTED = 'The last administrator cannot be demoted';

/** Use cases of interface §4.6 and the additions of DECISIONS.md §5. */
export class UserService {
  constructor(
    private readonly store: UserStore,
    private readonly revokeSessions: (userId: number) => Promise<void>,
    /** Where each change is announced (`user` events; default: nowhere). */
    private readonly events: EventBus = NO_EVENTS,
  ) {}

  async list(): Promise<User[]> {
    return (await this.store.list()).sort(compareByText((user) => user.username));
  }

  async get(id: number): Promise<User | undefined> {
    return this.store.findById(id);
  }

  async create(body: CheckedBody<NewUserBody>): Promise<User> {
    const collector = body.collector;
    if (idOf(body).kind === 'valid') collector.business('CREATE', msg.idOnCreate(ENTITY));
    const username = optionalUsername(body.get('username'));
    if (username !== undefined && (await this.store.findByUsername(username)) !== undefined) {
      collector.business('CREATE', msg.valueExists(ENTITY, 'username', username));
    }
    const value = body.value;
    const profile = profileOf(body);
    if (value === undefined || profile === undefined || username === undefined || !collector.isValid) {
      throw new ValidationFailedError(collector.results());
    }
    const { password, role } = value;
    let created: User;
    try {
      created = await this.store.insert(
        { username, passwordHash: await hashPassword(password), role, ...profile },
        RECORD.created(),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw invalid('CREATE', msg.valueExists(ENTITY, 'username', username));
      throw error;
    }
    this.events.publish(userEvent('CREATE', created));
    return created;
  }

  /**
   * An ADMIN may change anyone's username, role, names and e-mail, but never demote the last admin.
   * Anyone else may change only their own names and e-mail: a role or username change is refused.
   */
  async update(body: CheckedBody<UserUpdateBody>, caller: Principal): Promise<User> {
    const collector = body.collector;
    const id = idOf(body);
    if (id.kind === 'absent') collector.business('UPDATE', msg.requiresId(ENTITY));
    const profile = profileOf(body);
    const existing = id.kind === 'valid' ? await this.store.findById(id.id) : undefined;
    if (id.kind === 'valid' && existing === undefined)
      collector.business('UPDATE', msg.doesNotExist(ENTITY, id.id));
    const isAdmin = caller.role === 'ROLE_ADMIN';
    if (existing !== undefined && !isAdmin && existing.id !== caller.userId) {
      collector.business('UPDATE', 'Only an administrator may update another user');
    }
    // Null or missing keeps the stored value; a failed one is already reported.
    const role = body.passed('role') ? (body.get('role') ?? existing?.role) : undefined;
    const username = body.passed('username')
      ? (optionalUsername(body.get('username')) ?? existing?.username)
      : undefined;
    if (existing !== undefined && role !== undefined && username !== undefined) {
      if (!isAdmin && role !== existing.role)
        collector.business('UPDATE', 'Users cannot change their own role');
      if (!isAdmin && username !== existing.username)
        collector.business('UPDATE', 'Users cannot change their own username');
      if (
        existing.role === 'ROLE_ADMIN' &&
        role !== 'ROLE_ADMIN' &&
        (await this.store.countWithRole('ROLE_ADMIN')) <= 1
      ) {
        collector.business('UPDATE', LAST_ADMIN_DEMOTED);
      }
      if (username !== existing.username && (await this.store.findByUsername(username)) !== undefined) {
        collector.business('UPDATE', msg.valueExists(ENTITY, 'username', username));
      }
    }
    if (
      existing === undefined ||
      profile === undefined ||
      role === undefined ||
      username === undefined ||
      !collector.isValid
    ) {
      throw new ValidationFailedError(collector.results());
    }
    let updated: User | 'last-admin' | undefined;
    try {
      // The check above reports the common case with the other messages; this write repeats it
      // atomically, so two concurrent demotions cannot leave the service without an administrator.
      const record = RECORD.updated(existing);
      updated = await this.store.updateKeepingAnAdmin(
        { id: existing.id, username, role, ...profile },
        (written) => (written === 'last-admin' ? [] : record(written)),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw invalid('UPDATE', msg.valueExists(ENTITY, 'username', username));
      throw error;
    }
    if (updated === 'last-admin') throw invalid('UPDATE', LAST_ADMIN_DEMOTED);
    if (updated === undefined) throw invalid('UPDATE', msg.doesNotExist(ENTITY, existing.id));
    // A role change must take effect at once: the user signs in again with the new role.
    if (updated.role !== existing.role) await this.revokeSessions(updated.id);
    this.events.publish(userEvent('UPDATE', updated));
    return updated;
  }

  /** Nobody deletes themselves, nor the last admin; the user's sessions end with them. */
  async delete(body: CheckedBody<{ id?: number | null }>, caller: Principal): Promise<void> {
    const id = deleteId(body, ENTITY);
    const existing = await this.store.findById(id);
    if (existing === undefined) throw invalid('DELETE', msg.doesNotExist(ENTITY, id));
    if (existing.id === caller.userId) throw invalid('DELETE', 'Users cannot delete themselves');
    const outcome = await this.store.deleteKeepingAnAdmin(existing.id, (result) =>
      result === 'deleted' ? RECORD.deleted()(existing) : [],
    );
    if (outcome === 'last-admin') throw invalid('DELETE', 'The last administrator cannot be deleted');
    if (outcome === 'missing') throw invalid('DELETE', msg.doesNotExist(ENTITY, existing.id));
    this.events.publish(userEvent('DELETE', { id: existing.id }));
  }

  /** Checks the current password, stores the new one and ends every session of the user. */
  async changePassword(body: CheckedBody<PasswordChangeBody>, caller: Principal): Promise<void> {
    const value = body.value;
    if (value === undefined) throw new ValidationFailedError(body.collector.results());
    const { currentPassword: current, newPassword: next } = value;
    const found = await this.store.findCredentials(caller.username);
    if (found === undefined || !(await verifyPassword(current, found.passwordHash))) {
      throw invalid('UPDATE', 'The current password is wrong');
    }
    // The ledger says that it changed, never what to (nor the hash).
    await this.store.setPasswordHash(found.user.id, await hashPassword(next), (written) =>
      written ? [configEntry('user.password', subjectOf(found.user), { password: CHANGED })] : [],
    );
    await this.revokeSessions(found.user.id);
    this.events.publish(userEvent('UPDATE', found.user, 'Password changed'));
  }
}

const subjectOf = (user: User) => ({ id: user.id, name: user.username });

/** What the ledger says of a change (DECISIONS.md §14): the user's fields, never the password or its hash. */
const RECORD = new ConfigRecorder<User>('user', subjectOf, (user) => ({
  username: user.username,
  role: user.role,
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
}));

function optionalUsername(username: string | null | undefined): string | undefined {
  return username === undefined || username === null ? undefined : normalizeUsername(username);
}

/** firstName, lastName and email when all three passed; null or missing is stored as "". */
function profileOf(body: CheckedBody<ProfileBody>): Profile | undefined {
  if (!body.passed('firstName') || !body.passed('lastName') || !body.passed('email')) return undefined;
  return {
    firstName: body.get('firstName') ?? '',
    lastName: body.get('lastName') ?? '',
    email: body.get('email') ?? '',
  };
}
