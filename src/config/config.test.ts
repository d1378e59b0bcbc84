import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults when the environment is empty', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.database).toEqual({ kind: 'sqlite', file: path.resolve('data', 'scriptorium.sqlite') });
    expect(config.adminUsername).toBe('admin');
    expect(config.embeddedRepository).toBe(true);
    expect(config.repositoryUsername).toBe('fedoraAdmin');
    expect(config.logLevel).toBe('info');
    expect(config.bodyLimit).toBe(1048576);
  });

  it('chooses PostgreSQL from DATABASE_URL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@localhost/db' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@localhost/db' });
  });

  it('reports every problem at once without echoing the database URL', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        DATABASE_URL: 'mysql://u:secret@h/db',
        SCRIPTORIUM_EMBEDDED_REPOSITORY: 'maybe',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).not.toContain('secret');
    expect(problems.some((p) => p.startsWith('PORT'))).toBe(true);
  });

  it('reads the embedded repository transaction timeout and binary limit', () => {
    const defaults = loadConfig({});
    expect(defaults.repositoryTxTimeoutSeconds).toBe(180);
    expect(defaults.repositoryMaxBinaryBytes).toBe(2 ** 40);
    const set = loadConfig({
      SCRIPTORIUM_REPOSITORY_TX_TIMEOUT_SECONDS: '5',
      SCRIPTORIUM_REPOSITORY_MAX_BINARY_BYTES: '4096',
    });
    expect(set.repositoryTxTimeoutSeconds).toBe(5);
    expect(set.repositoryMaxBinaryBytes).toBe(4096);
    expect(() => loadConfig({ SCRIPTORIUM_REPOSITORY_TX_TIMEOUT_SECONDS: '0' })).toThrow(
      /SCRIPTORIUM_REPOSITORY_TX_TIMEOUT_SECONDS must be an integer from 1 to 86400/,
    );
  });

  it('reads the SPARQL Update limits of the embedded repository', () => {
    expect(loadConfig({})).toMatchObject({
      repositoryUpdateTimeoutMs: 5000,
      repositoryUpdateMaxSolutions: 100_000,
    });
    expect(
      loadConfig({
        SCRIPTORIUM_REPOSITORY_UPDATE_TIMEOUT_MS: '250',
        SCRIPTORIUM_REPOSITORY_UPDATE_MAX_SOLUTIONS: '10',
      }),
    ).toMatchObject({ repositoryUpdateTimeoutMs: 250, repositoryUpdateMaxSolutions: 10 });
    expect(() => loadConfig({ SCRIPTORIUM_REPOSITORY_UPDATE_TIMEOUT_MS: '0' })).toThrow(
      /SCRIPTORIUM_REPOSITORY_UPDATE_TIMEOUT_MS must be an integer from 100/,
    );
  });

  it('reads the hosts the vocabulary reader may reach although they are private', () => {
    expect(loadConfig({}).vocabularyFetchAllowedHosts).toEqual([]);
    expect(
      loadConfig({ SCRIPTORIUM_VOCABULARY_ALLOWED_HOSTS: ' 127.0.0.1, Vocab.Internal ,,[::1],fd00::5' })
        .vocabularyFetchAllowedHosts,
    ).toEqual(['127.0.0.1', 'vocab.internal', '[::1]', 'fd00::5']);
    expect(() => loadConfig({ SCRIPTORIUM_VOCABULARY_ALLOWED_HOSTS: 'http://x.org/ns' })).toThrow(
      /SCRIPTORIUM_VOCABULARY_ALLOWED_HOSTS must be a comma-separated list of host names or IP addresses/,
    );
  });

  it('reads the slow-client limits and refuses a headers timeout longer than the request timeout', () => {
    expect(loadConfig({})).toMatchObject({
      idleTimeoutSeconds: 120,
      headersTimeoutSeconds: 30,
      requestTimeoutSeconds: 3600,
      keepAliveTimeoutSeconds: 10,
      maxConnections: 512,
    });
    expect(
      loadConfig({
        SCRIPTORIUM_IDLE_TIMEOUT_SECONDS: '5',
        SCRIPTORIUM_HEADERS_TIMEOUT_SECONDS: '60',
        SCRIPTORIUM_REQUEST_TIMEOUT_SECONDS: '0',
        SCRIPTORIUM_KEEP_ALIVE_TIMEOUT_SECONDS: '2',
        SCRIPTORIUM_MAX_CONNECTIONS: '64',
      }),
    ).toMatchObject({
      idleTimeoutSeconds: 5,
      headersTimeoutSeconds: 60,
      requestTimeoutSeconds: 0,
      keepAliveTimeoutSeconds: 2,
      maxConnections: 64,
    });
    expect(() =>
      loadConfig({ SCRIPTORIUM_HEADERS_TIMEOUT_SECONDS: '60', SCRIPTORIUM_REQUEST_TIMEOUT_SECONDS: '30' }),
    ).toThrow(/SCRIPTORIUM_HEADERS_TIMEOUT_SECONDS must not exceed SCRIPTORIUM_REQUEST_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ SCRIPTORIUM_MAX_CONNECTIONS: '0' })).toThrow(
      /SCRIPTORIUM_MAX_CONNECTIONS must be an integer from 1/,
    );
  });

  it('reads the sign-in rate limits', () => {
    expect(loadConfig({})).toMatchObject({ loginRatePerAddress: 30, loginRateGlobal: 300 });
    expect(
      loadConfig({ SCRIPTORIUM_LOGIN_RATE_PER_ADDRESS: '5', SCRIPTORIUM_LOGIN_RATE_GLOBAL: '50' }),
    ).toMatchObject({ loginRatePerAddress: 5, loginRateGlobal: 50 });
    expect(() => loadConfig({ SCRIPTORIUM_LOGIN_RATE_GLOBAL: '0' })).toThrow(
      /SCRIPTORIUM_LOGIN_RATE_GLOBAL must be an integer from 1/,
    );
  });

  it('reads which proxies to trust for the client address; trusting everyone is not offered', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ SCRIPTORIUM_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ SCRIPTORIUM_TRUST_PROXY: '10.0.0.5, 192.168.0.0/16, ::1' }).trustProxy).toEqual([
      '10.0.0.5',
      '192.168.0.0/16',
      '::1',
    ]);
    for (const bad of ['true', '0', '11', 'proxy.example', '10.0.0.0/99'])
      expect(() => loadConfig({ SCRIPTORIUM_TRUST_PROXY: bad }), bad).toThrow(
        /SCRIPTORIUM_TRUST_PROXY must be/,
      );
  });

  it('refuses a configured embedded-repository password shorter than 16 characters, without echoing it', () => {
    let error: unknown;
    try {
      loadConfig({ SCRIPTORIUM_REPOSITORY_PASSWORD: 'fedoraAdmin1', PORT: 'x' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toContain('SCRIPTORIUM_REPOSITORY_PASSWORD must be at least 16 characters long');
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).not.toContain('fedoraAdmin1');
    expect(loadConfig({ SCRIPTORIUM_REPOSITORY_PASSWORD: 'sixteen-chars-ok' }).repositoryPassword).toBe(
      'sixteen-chars-ok',
    );
  });

  it('reads the curation job settings', () => {
    expect(loadConfig({})).toMatchObject({
      jobConcurrency: 4,
      jobMaxResources: 10_000,
      jobLeaseSeconds: 30,
      jobWorkers: 2,
    });
    expect(
      loadConfig({
        SCRIPTORIUM_JOB_CONCURRENCY: '8',
        SCRIPTORIUM_JOB_MAX_RESOURCES: '500',
        SCRIPTORIUM_JOB_LEASE_SECONDS: '10',
        SCRIPTORIUM_JOB_WORKERS: '1',
      }),
    ).toMatchObject({ jobConcurrency: 8, jobMaxResources: 500, jobLeaseSeconds: 10, jobWorkers: 1 });
    expect(() => loadConfig({ SCRIPTORIUM_JOB_WORKERS: '0', SCRIPTORIUM_JOB_LEASE_SECONDS: 'soon' })).toThrow(
      /SCRIPTORIUM_JOB_LEASE_SECONDS must be an integer from 3 to 3600, got "soon"[\s\S]*SCRIPTORIUM_JOB_WORKERS must be an integer from 1 to 64/,
    );
  });

  it('reads the INDEX job settings', () => {
    expect(loadConfig({})).toMatchObject({ indexJobMaxResources: 1_000_000, searchIndexNewViews: true });
    expect(
      loadConfig({
        SCRIPTORIUM_INDEX_JOB_MAX_RESOURCES: '2000',
        SCRIPTORIUM_SEARCH_INDEX_NEW_VIEWS: 'false',
      }),
    ).toMatchObject({ indexJobMaxResources: 2000, searchIndexNewViews: false });
    expect(() => loadConfig({ SCRIPTORIUM_INDEX_JOB_MAX_RESOURCES: '0' })).toThrow(
      /SCRIPTORIUM_INDEX_JOB_MAX_RESOURCES must be an integer from 1 to 100000000, got "0"/,
    );
  });

  it('reads the spreadsheet import limits', () => {
    expect(loadConfig({})).toMatchObject({
      spreadsheetMaxRows: 100_000,
      spreadsheetMaxBytes: 256 * 1024 * 1024,
    });
    expect(
      loadConfig({ SCRIPTORIUM_SPREADSHEET_MAX_ROWS: '50', SCRIPTORIUM_SPREADSHEET_MAX_BYTES: '4096' }),
    ).toMatchObject({ spreadsheetMaxRows: 50, spreadsheetMaxBytes: 4096 });
    expect(() => loadConfig({ SCRIPTORIUM_SPREADSHEET_MAX_ROWS: '0' })).toThrow(
      /SCRIPTORIUM_SPREADSHEET_MAX_ROWS must be an integer from 1 to 10000000, got "0"/,
    );
  });

  it('reads the spreadsheet export limit', () => {
    expect(loadConfig({}).exportMaxResources).toBe(1_000_000);
    expect(loadConfig({ SCRIPTORIUM_EXPORT_MAX_RESOURCES: '100000' }).exportMaxResources).toBe(100_000);
    expect(() => loadConfig({ SCRIPTORIUM_EXPORT_MAX_RESOURCES: '0' })).toThrow(
      /SCRIPTORIUM_EXPORT_MAX_RESOURCES must be an integer from 1 to 100000000, got "0"/,
    );
  });

  it('reads the render cache budget, 0 turning it off', () => {
    expect(loadConfig({}).renderCacheMiB).toBe(32);
    expect(loadConfig({ SCRIPTORIUM_RENDER_CACHE_MIB: '0' }).renderCacheMiB).toBe(0);
    expect(() => loadConfig({ SCRIPTORIUM_RENDER_CACHE_MIB: '-1' })).toThrow(
      /SCRIPTORIUM_RENDER_CACHE_MIB must be an integer from 0 to 65536, got "-1"/,
    );
  });

  it('reads the bounds of a search’s regular expression', () => {
    expect(loadConfig({})).toMatchObject({ searchRegexMaxValues: 200_000, searchRegexMaxMillis: 2_000 });
    expect(
      loadConfig({ SCRIPTORIUM_SEARCH_REGEX_MAX_VALUES: '5000', SCRIPTORIUM_SEARCH_REGEX_MAX_MILLIS: '250' }),
    ).toMatchObject({ searchRegexMaxValues: 5000, searchRegexMaxMillis: 250 });
    expect(() =>
      loadConfig({ SCRIPTORIUM_SEARCH_REGEX_MAX_VALUES: '0', SCRIPTORIUM_SEARCH_REGEX_MAX_MILLIS: 'long' }),
    ).toThrow(
      /SCRIPTORIUM_SEARCH_REGEX_MAX_VALUES must be an integer from 1 to 100000000, got "0"[\s\S]*SCRIPTORIUM_SEARCH_REGEX_MAX_MILLIS must be an integer from 10 to 600000, got "long"/,
    );
  });

  it('runs the search feed unless SCRIPTORIUM_SEARCH_FEED turns it off', () => {
    expect(loadConfig({}).searchFeed).toBe(true);
    expect(loadConfig({ SCRIPTORIUM_SEARCH_FEED: 'off' }).searchFeed).toBe(false);
    expect(loadConfig({ SCRIPTORIUM_SEARCH_FEED: 'on' }).searchFeed).toBe(true);
    expect(() => loadConfig({ SCRIPTORIUM_SEARCH_FEED: 'sometimes' })).toThrow(
      /SCRIPTORIUM_SEARCH_FEED must be true or false, got "sometimes"/,
    );
  });
});

describe('loadConfig: notifications', () => {
  it('has no SMTP server by default and the documented worker settings', () => {
    expect(loadConfig({})).toMatchObject({
      smtpUrl: undefined,
      smtpFrom: 'scriptorium@localhost',
      notificationPollMs: 5000,
      notificationTimeoutMs: 10_000,
      notificationRetrySeconds: [60, 300, 1800, 7200],
    });
  });

  it('reads the SMTP URL, the sender and the retry waits', () => {
    const config = loadConfig({
      SCRIPTORIUM_SMTP_URL: 'smtp://mailer:pw@127.0.0.1:2525',
      SCRIPTORIUM_SMTP_FROM: 'curation@example.org',
      SCRIPTORIUM_NOTIFICATION_RETRY_SECONDS: '0, 1,2',
      SCRIPTORIUM_NOTIFICATION_POLL_MS: '20',
    });
    expect(config.smtpUrl).toBe('smtp://mailer:pw@127.0.0.1:2525');
    expect(config.smtpFrom).toBe('curation@example.org');
    expect(config.notificationRetrySeconds).toEqual([0, 1, 2]);
    expect(config.notificationPollMs).toBe(20);
  });

  it('refuses a URL that is not SMTP without echoing its password', () => {
    let error: unknown;
    try {
      loadConfig({
        SCRIPTORIUM_SMTP_URL: 'http://mailer:hunter2secret@example.org',
        SCRIPTORIUM_SMTP_FROM: 'not an address',
        SCRIPTORIUM_NOTIFICATION_RETRY_SECONDS: '60,soon',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).not.toContain('hunter2secret');
    expect(problems[0]).toMatch(/SCRIPTORIUM_SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
  });
});

describe('loadConfig: operations', () => {
  it('has no metrics token by default; reads one, and refuses a short one without echoing it', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    const token = 'a-scraper-token-of-enough-length';
    expect(loadConfig({ SCRIPTORIUM_METRICS_TOKEN: token }).metricsToken).toBe(token);
    for (const bad of ['short-token', 'a token with spaces in it, long enough']) {
      let error: unknown;
      try {
        loadConfig({ SCRIPTORIUM_METRICS_TOKEN: bad });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        'SCRIPTORIUM_METRICS_TOKEN must be 24 to 200 printable characters without spaces',
      ]);
      expect((error as ConfigError).message).not.toContain(bad);
    }
  });
});
