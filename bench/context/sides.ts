import type autocannon from 'autocannon';
import type { Api, View } from './api.js';
import type { LiteralCounter } from './counting.js';
import { bareRequest, isSuccess, type Side } from './measure.js';
import type { Repository } from './repositories.js';
import { ADDED_PREDICATE } from './settings.js';

/** The load each scenario puts on the service and on the bare repository, as autocannon requests. */

export function serviceRender(api: Api, repo: Repository, view: View, container: string): Side {
  return {
    key: 'service',
    label: `${repo.key} · render · service`,
    origin: api.url,
    requests: [
      {
        method: 'GET',
        path: `${view.prefix}?contextUri=${encodeURIComponent(container)}`,
        headers: api.auth,
      },
    ],
    verifyBody: isSuccess,
  };
}

/** The bare requests a render needs; `firstOnly`: the bare GET of the resource alone (issue 10's baseline). */
export function bareRender(repo: Repository, container: string, firstOnly = false): Side {
  const requests = repo.render(container).map(bareRequest);
  return {
    key: 'bare',
    label: `${repo.key} · render · bare${firstOnly ? ' GET only' : ''}`,
    origin: repo.origin,
    requests: firstOnly ? requests.slice(0, 1) : requests,
  };
}

const update = (target: string, literal: string) =>
  `INSERT DATA { <${target}> <${ADDED_PREDICATE}> "${literal}" . }`;

/** Round robin over the targets; the first request of a sequence picks, the others follow it. */
export function serviceAdd(
  api: Api,
  repo: Repository,
  view: View,
  literals: LiteralCounter,
  targets: string[],
): Side {
  return {
    key: 'service',
    label: `${repo.key} · add · service`,
    origin: api.url,
    requests: [
      {
        method: 'POST',
        path: '/',
        headers: { ...api.auth, 'content-type': 'application/json' },
        setupRequest: (request) => {
          const n = ++literals.service;
          const target = targets[n % targets.length]!;
          return {
            ...request,
            path: `${view.prefix}/metadata?contextUri=${encodeURIComponent(target)}`,
            body: JSON.stringify({ subject: target, predicate: ADDED_PREDICATE, object: `"bench-add ${n}"` }),
          };
        },
      },
    ],
    verifyBody: isSuccess,
  };
}

/** The PATCH, followed (`withRender`) by the reads the service's answer needs. */
export function bareAdd(
  repo: Repository,
  literals: LiteralCounter,
  targets: string[],
  withRender: boolean,
): Side {
  const renders = repo.render(targets[0]!).map((_, index) => ({
    method: 'GET' as const,
    path: '/',
    setupRequest: (request: autocannon.Request, context: object) => {
      const target = (context as { target: string }).target;
      return { ...request, ...bareRequest(repo.render(target)[index]!) };
    },
  }));
  return {
    key: withRender ? 'bare' : 'patch',
    label: `${repo.key} · add · ${withRender ? 'bare' : 'PATCH only'}`,
    origin: repo.origin,
    requests: [
      {
        method: 'PATCH',
        path: '/',
        setupRequest: (request, context) => {
          const n = ++literals.bare;
          const target = targets[n % targets.length]!;
          (context as { target: string }).target = target;
          return { ...request, ...bareRequest(repo.patch(target, update(target, `bench-bare ${n}`))) };
        },
      },
      ...(withRender ? renders : []),
    ],
  };
}
