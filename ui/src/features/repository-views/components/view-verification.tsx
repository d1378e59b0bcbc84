import { Button, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../../../api/errors';
import type { VerificationBody, ViewType } from '../forms/view.schema';
import { VERIFICATION_STEPS, verifyStep, type VerificationStep } from '../api';

type StepResult =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'passed'; message: string }
  | { state: 'failed'; message: string }
  | { state: 'skipped' };

const IDLE: Record<VerificationStep, StepResult> = {
  ping: { state: 'idle' },
  auth: { state: 'idle' },
  content: { state: 'idle' },
};

/** Each state as an icon AND words: colour is never the only signal. */
function StatusIcon({ result }: { result: StepResult }) {
  if (result.state === 'running') return <Loader size={18} aria-hidden="true" />;
  const [glyph, color] =
    result.state === 'passed'
      ? ['✓', 'green']
      : result.state === 'failed'
        ? ['✕', 'red']
        : result.state === 'skipped'
          ? ['–', 'gray']
          : ['○', 'gray'];
  return (
    <ThemeIcon color={color} variant="light" radius="xl" size={22} aria-hidden="true">
      <span>{glyph}</span>
    </ThemeIcon>
  );
}

function statusText(result: StepResult): string {
  switch (result.state) {
    case 'idle':
      return 'Pending';
    case 'running':
      return 'Running…';
    case 'passed':
      return `Passed: ${result.message}`;
    case 'failed':
      return `Failed: ${result.message}`;
    case 'skipped':
      return 'Not run: an earlier step failed';
  }
}

/**
 * The three checks of a (maybe unsaved) view, run in order with the form's current values: ping, auth,
 * content. `prepare` validates the fields and answers the body, or null when a field is wrong; an
 * INVALID answer's field messages go back to the form through `onInvalid`.
 */
export function ViewVerification({
  prepare,
  onInvalid,
  settings,
}: {
  /** The checked settings as one string: results for other settings are marked out of date. */
  settings: string;
  prepare: () => { type: ViewType; body: VerificationBody } | null;
  onInvalid: (error: ApiError) => void;
}) {
  const [results, setResults] = useState(IDLE);
  const [running, setRunning] = useState(false);
  const [verifiedFor, setVerifiedFor] = useState<string | null>(null);

  const run = async () => {
    const request = prepare();
    if (request === null) return;
    setRunning(true);
    setVerifiedFor(settings);
    let next = { ...IDLE };
    setResults(next);
    let failed = false;
    for (const { step } of VERIFICATION_STEPS) {
      if (failed) {
        next = { ...next, [step]: { state: 'skipped' } };
        setResults(next);
        continue;
      }
      next = { ...next, [step]: { state: 'running' } };
      setResults(next);
      try {
        const message = await verifyStep(request.type, step, request.body);
        next = { ...next, [step]: { state: 'passed', message } };
      } catch (error) {
        failed = true;
        if (error instanceof ApiError && error.kind === 'INVALID') onInvalid(error);
        const message = error instanceof Error ? error.message : String(error);
        next = { ...next, [step]: { state: 'failed', message } };
      }
      setResults(next);
    }
    setRunning(false);
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="view-verification-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="view-verification-title">
            Verification
          </Title>
          <Button variant="light" onClick={() => void run()} loading={running}>
            Verify
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Checks the settings above without saving them: the root answers, the credentials are accepted, and
          it is a repository of the chosen type.
        </Text>
        {verifiedFor !== null && verifiedFor !== settings && !running && (
          <Text size="sm" role="status">
            The settings changed since these results: verify again.
          </Text>
        )}
        <Stack component="ol" gap="xs" aria-label="Verification steps" aria-live="polite" p={0} m={0}>
          {VERIFICATION_STEPS.map(({ step, label }) => (
            <Group component="li" key={step} gap="sm" wrap="nowrap" align="flex-start">
              <StatusIcon result={results[step]} />
              <Text size="sm" style={{ wordBreak: 'break-word' }}>
                <strong>{label}</strong> — {statusText(results[step])}
              </Text>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
