import { isUniqueViolation } from '../db/sql-errors.js';
import type { Principal } from '../auth/roles.js';
import {
  businessInvalid as invalid,
  businessMessages as msg,
  idToDelete,
} from '../shared/business-messages.js';
import { compareByText } from '../shared/compare.js';
import { ValidationFailedError } from '../shared/errors.js';
import { checkId, checkString, ValidationCollector } from '../shared/validation.js';
import { hashPassword, verifyPassword } from './password.js';
import { ENTITY, type User } from './user.js';
import { parseProfile, parseRole, parseUsername, PASSWORD_RULE } from './user.rules.js';
import type { UserStore } from './user.store.js';

type Body = Readonly<Record<string, unknown>>;

const LAST_ADMIN_DEMOTED = 'The last administrator cannot be demoted';

/** Use cases of interface §4.6 and the additions of DECISIONS.md §5. */
export class UserService {
  constructor(
    private readonly store: UserStore,
    private readonly revokeSessions: (userId: number) => Promise<void>,
  ) {}

  async list(): Promise<User[]> {
    return (await this.store.list()).sort(compareByText((user) => user.username));
  }

  async get(id: number): Promise<User | undefined> {
    return this.store.findById(id);
  }

  async create(body: Body): Promise<User> {
    const collector = new ValidationCollector();
    const id = checkId(body, collector);
    if (id.kind === 'valid') collector.business('CREATE', msg.idOnCreate(ENTITY));
    const username = parseUsername(body, collector);
    const password = checkString(body, PASSWORD_RULE, collector);
    const role = parseRole(body, collector);
    const profile = parseProfile(body, collector);
    if (username !== undefined && (await this.store.findByUsername(username)) !== undefined) {
      collector.business('CREATE', msg.valueExists(ENTITY, 'username', username));
    }
    if (
      username === undefined ||
      password === undefined ||
      role === undefined ||
      profile === undefined ||
      !collector.isValid
    ) {
      throw new ValidationFailedError(collector.results());
    }
    try {
      return await this.store.insert({
        username,
        passwordHash: await hashPassword(password),
        role,
        ...profile,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw invalid('CREATE', msg.valueExists(ENTITY, 'username', username));
      throw error;
    }
  }

  /**
   * An ADMIN may change anyone's username, role, names and e-mail, but never demote the last admin.
   * Anyone else may change only their own names and e-mail: a role or username change is refused.
   */
  async update(body: Body, caller: Principal): Promise<User> {
    const collector = new ValidationCollector();
    const id = checkId(body, collector);
    if (id.kind === 'absent') collector.business('UPDATE', msg.requiresId(ENTITY));
    const profile = parseProfile(body, collector);
    const existing = id.kind === 'valid' ? await this.store.findById(id.id) : undefined;
    if (id.kind === 'valid' && existing === undefined)
      collector.business('UPDATE', msg.doesNotExist(ENTITY, id.id));
    const isAdmin = caller.role === 'ROLE_ADMIN';
    if (existing !== undefined && !isAdmin && existing.id !== caller.userId) {
      collector.business('UPDATE', 'Only an administrator may update another user');
    }
    const role = body.role === undefined || body.role === null ? existing?.role : parseRole(body, collector);
    const username =
      body.username === undefined || body.username === null
        ? existing?.username
        : parseUsername(body, collector);
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
      updated = await this.store.updateKeepingAnAdmin({ id: existing.id, username, role, ...profile });
    } catch (error) {
      if (isUniqueViolation(error)) throw invalid('UPDATE', msg.valueExists(ENTITY, 'username', username));
      throw error;
    }
    if (updated === 'last-admin') throw invalid('UPDATE', LAST_ADMIN_DEMOTED);
    if (updated === undefined) throw invalid('UPDATE', msg.doesNotExist(ENTITY, existing.id));
    // A role change must take effect at once: the user signs in again with the new role.
    if (updated.role !== existing.role) await this.revokeSessions(updated.id);
    return updated;
  }

  /** Nobody deletes themselves, nor the last admin; the user's sessions end with them. */
  async delete(body: Body, caller: Principal): Promise<void> {
    const id = idToDelete(body, ENTITY);
    const existing = await this.store.findById(id);
    if (existing === undefined) throw invalid('DELETE', msg.doesNotExist(ENTITY, id));
    if (existing.id === caller.userId) throw invalid('DELETE', 'Users cannot delete themselves');
    const outcome = await this.store.deleteKeepingAnAdmin(existing.id);
    if (outcome === 'last-admin') throw invalid('DELETE', 'The last administrator cannot be deleted');
    if (outcome === 'missing') throw invalid('DELETE', msg.doesNotExist(ENTITY, existing.id));
  }

  /** Checks the current password, stores the new one and ends every session of the user. */
  async changePassword(body: Body, caller: Principal): Promise<void> {
    const collector = new ValidationCollector();
    const current = checkString(
      body,
      {
        property: 'currentPassword',
        maxLength: 200,
        messages: {
          required: 'The current password is required',
          maxlength: 'A password must be no more than 200 characters',
          type: 'A password must be a string',
        },
      },
      collector,
    );
    const next = checkString(
      body,
      {
        ...PASSWORD_RULE,
        property: 'newPassword',
        messages: { ...PASSWORD_RULE.messages, required: 'A new password is required' },
      },
      collector,
    );
    if (current === undefined || next === undefined) throw new ValidationFailedError(collector.results());
    const found = await this.store.findCredentials(caller.username);
    if (found === undefined || !(await verifyPassword(current, found.passwordHash))) {
      throw invalid('UPDATE', 'The current password is wrong');
    }
    await this.store.setPasswordHash(found.user.id, await hashPassword(next));
    await this.revokeSessions(found.user.id);
  }
}
