import { Badge, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import type { Context } from '../../../api/context-types';
import type { ResourceRef } from '../../../api/context-uri';
import { AnchorLink } from '../../../components/links';
import { ancestry, lastSegment } from '../terms';

/** Breadcrumbs from the view's root to the resource, the level-1 heading, its type and features. */
export function ResourceHeader({
  resource,
  rootUri,
  viewName,
  context,
}: {
  resource: ResourceRef;
  rootUri: string;
  viewName: string;
  context: Context;
}) {
  const crumbs = ancestry(rootUri, resource.uri);
  const iri = context.triple?.subject ?? resource.uri ?? rootUri;
  const features = Object.entries(context.features).filter(([, on]) => on);
  return (
    <Stack gap="xs">
      <nav aria-label="Breadcrumbs">
        <Breadcrumbs separatorMargin={4} style={{ flexWrap: 'wrap', rowGap: 4 }}>
          {crumbs.map((crumb, index) => {
            const label = index === 0 ? viewName : lastSegment(crumb);
            if (index === crumbs.length - 1)
              return (
                <Text key={crumb} size="sm" aria-current="page" style={{ wordBreak: 'break-all' }}>
                  {index === 0 ? viewName : (context.name ?? label)}
                </Text>
              );
            return (
              <AnchorLink
                key={crumb}
                size="sm"
                to="/views/$viewId/browse"
                params={{ viewId: String(resource.view.id) }}
                search={{ uri: index === 0 ? undefined : crumb, tx: resource.tx }}
                style={{ wordBreak: 'break-all' }}
              >
                {label}
              </AnchorLink>
            );
          })}
        </Breadcrumbs>
      </nav>
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>
        {context.name ?? iri}
      </Title>
      <Group gap="xs">
        <Badge variant="filled" color={context.resource ? 'grape' : 'blue'}>
          {context.resource ? 'Binary' : 'Container'}
        </Badge>
        {context.isVersion && <Badge color="orange">Version {context.version}</Badge>}
        {features.map(([feature]) => (
          <Badge key={feature} variant="light" color="gray">
            {feature}
          </Badge>
        ))}
      </Group>
      <Text size="xs" c="gray.7" style={{ wordBreak: 'break-all' }}>
        {iri}
      </Text>
    </Stack>
  );
}
