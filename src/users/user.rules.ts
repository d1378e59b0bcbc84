import { isRole, type Role } from '../auth/roles.js';
import { checkString, type StringRule, type ValidationCollector } from '../shared/validation.js';
import { ASSIGNABLE_ROLES } from './user.js';

type Body = Readonly<Record<string, unknown>>;

export const USERNAME_RULE: StringRule = {
  property: 'username',
  minLength: 2,
  maxLength: 100,
  pattern: /^[A-Za-z0-9._@+-]+$/,
  messages: {
    required: 'A user requires a username',
    minlength: 'A username must be at least 2 characters',
    maxlength: 'A username must be no more than 100 characters',
    pattern: 'A username may contain only letters, digits and . _ @ + -',
    type: 'A username must be a string',
  },
};

export const PASSWORD_RULE: StringRule = {
  property: 'password',
  minLength: 8,
  maxLength: 200,
  messages: {
    required: 'A user requires a password',
    minlength: 'A password must be at least 8 characters',
    maxlength: 'A password must be no more than 200 characters',
    type: 'A password must be a string',
  },
};

/** Usernames are compared case-insensitively; they are stored lower-case. */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

function optionalText(
  body: Body,
  property: string,
  max: number,
  collector: ValidationCollector,
): string | undefined {
  const value = body[property];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') {
    collector.add(property, 'type', `A user's ${property} must be a string`);
    return undefined;
  }
  if (value.length > max) {
    collector.add(property, 'maxlength', `A user's ${property} must be no more than ${max} characters`);
    return undefined;
  }
  return value;
}

export interface Profile {
  firstName: string;
  lastName: string;
  email: string;
}

/** firstName, lastName and email: optional text (null → ""), e-mail checked loosely when present. */
export function parseProfile(body: Body, collector: ValidationCollector): Profile | undefined {
  const firstName = optionalText(body, 'firstName', 100, collector);
  const lastName = optionalText(body, 'lastName', 100, collector);
  const email = optionalText(body, 'email', 254, collector);
  if (email !== undefined && email !== '' && !/^[^\s@]+@[^\s@]+$/.test(email)) {
    collector.add('email', 'pattern', 'An e-mail address must look like name@example.org');
    return undefined;
  }
  if (firstName === undefined || lastName === undefined || email === undefined) return undefined;
  return { firstName, lastName, email };
}

/** A role a user may hold: ROLE_ADMIN, ROLE_CURATOR or ROLE_USER. */
export function parseRole(body: Body, collector: ValidationCollector): Role | undefined {
  const role = body.role;
  if (role === undefined || role === null) {
    collector.add('role', 'required', 'A user requires a role');
    return undefined;
  }
  if (!isRole(role) || !ASSIGNABLE_ROLES.includes(role)) {
    collector.add('role', 'type', `A role must be one of ${ASSIGNABLE_ROLES.join(', ')}`);
    return undefined;
  }
  return role;
}

export function parseUsername(body: Body, collector: ValidationCollector): string | undefined {
  const username = checkString(body, USERNAME_RULE, collector);
  return username === undefined ? undefined : normalizeUsername(username);
}
