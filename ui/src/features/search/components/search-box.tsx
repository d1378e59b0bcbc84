import { Button, Checkbox, Group, Stack, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';

export const QUERY_HELP =
  'All terms must match: word, word*, "a phrase", -word, dcterms:title:word, has:dcterms:date, ' +
  'type:pcdm:Object, binary:true, modified:>=2026-01-01';

/**
 * The search form: one box named `Search` and its button. `error` is the API's INVALID message for the
 * query shown (it names the position), set on the box itself so it is read with it.
 */
export function SearchBox({
  initial,
  error,
  description,
  onSearch,
  children,
}: {
  initial: string;
  error?: string | undefined;
  description?: string;
  onSearch: (text: string) => void;
  /** More controls of the form (the scope), under the box. */
  children?: React.ReactNode;
}) {
  const [text, setText] = useState(initial);
  // A new query in the address (back, a link, a removed filter) is what the box shows.
  useEffect(() => setText(initial), [initial]);
  return (
    <form
      role="search"
      aria-label="Search this view"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim());
      }}
    >
      <Stack gap={6}>
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            aria-label="Search"
            placeholder="Search this view"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            error={error}
            description={description}
            inputWrapperOrder={['input', 'error', 'description']}
            style={{ flex: 1, minWidth: 0 }}
            type="search"
            autoComplete="off"
          />
          <Button type="submit">Search</Button>
        </Group>
        {children}
      </Stack>
    </form>
  );
}

/**
 * The repository browser's search box: it opens the view's search screen, inside the container shown
 * (when it is one and `Only inside this container` stays ticked), else over the whole view.
 */
export function BrowserSearchBox({ viewId, container }: { viewId: number; container: string | undefined }) {
  const navigate = useNavigate();
  const [inside, setInside] = useState(true);
  return (
    <SearchBox
      initial=""
      onSearch={(q) =>
        void navigate({
          to: '/views/$viewId/search',
          params: { viewId: String(viewId) },
          search: {
            ...(q === '' ? {} : { q }),
            ...(container !== undefined && inside ? { contextUri: container } : {}),
          },
        })
      }
    >
      {container !== undefined && (
        <Checkbox
          label="Only inside this container"
          checked={inside}
          onChange={(event) => setInside(event.currentTarget.checked)}
          size="xs"
        />
      )}
    </SearchBox>
  );
}
