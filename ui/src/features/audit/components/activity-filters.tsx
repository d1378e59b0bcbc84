import { Autocomplete, Button, Group, NativeSelect, SimpleGrid, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ACTION_GROUPS } from '../actions';
import type { ActivityState } from '../activity-filter';

/** The filter form: view, user, action, from, to; `Show activity` puts them in the URL (page one). */
export function ActivityFilters({
  state,
  views,
  usernames,
  onApply,
}: {
  state: ActivityState;
  views: readonly { id: number; name: string }[];
  usernames: readonly string[];
  onApply: (next: Omit<ActivityState, 'offset'>) => void;
}) {
  const [viewId, setViewId] = useState(state.viewId === undefined ? '' : String(state.viewId));
  const [username, setUsername] = useState(state.username ?? '');
  const [action, setAction] = useState(state.action ?? '');
  const [from, setFrom] = useState(state.from ?? '');
  const [to, setTo] = useState(state.to ?? '');
  const given = (text: string) => (text.trim() === '' ? undefined : text.trim());
  const known = ACTION_GROUPS.some((group) => group.actions.some(([value]) => value === action));
  return (
    <form
      aria-label="Filter the activity"
      onSubmit={(event) => {
        event.preventDefault();
        onApply({
          viewId: viewId === '' ? undefined : Number(viewId),
          username: given(username),
          action: given(action),
          from: given(from),
          to: given(to),
        });
      }}
    >
      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm">
        <NativeSelect
          label="Repository view"
          value={viewId}
          onChange={(event) => setViewId(event.currentTarget.value)}
          data={[
            { value: '', label: 'All views' },
            ...views.map((view) => ({ value: String(view.id), label: view.name })),
            // A deleted view's id from a link still shows as chosen.
            ...(viewId !== '' && !views.some((view) => String(view.id) === viewId)
              ? [{ value: viewId, label: `View ${viewId}` }]
              : []),
          ]}
        />
        <Autocomplete
          label="User"
          placeholder="Anyone"
          value={username}
          onChange={setUsername}
          data={[...usernames]}
        />
        <NativeSelect
          label="Action"
          value={action}
          onChange={(event) => setAction(event.currentTarget.value)}
          data={[
            { value: '', label: 'Any action' },
            ...ACTION_GROUPS.map((group) => ({
              group: group.group,
              items: group.actions.map(([value, label]) => ({ value, label })),
            })),
            ...(action !== '' && !known ? [{ value: action, label: action }] : []),
          ]}
        />
        <TextInput
          label="From"
          type="date"
          value={from}
          onChange={(event) => setFrom(event.currentTarget.value)}
        />
        <TextInput label="To" type="date" value={to} onChange={(event) => setTo(event.currentTarget.value)} />
      </SimpleGrid>
      <Group gap="sm" mt="sm">
        <Button type="submit">Show activity</Button>
        <Button
          variant="default"
          onClick={() => {
            setViewId('');
            setUsername('');
            setAction('');
            setFrom('');
            setTo('');
            onApply({});
          }}
        >
          Clear filters
        </Button>
      </Group>
    </form>
  );
}
