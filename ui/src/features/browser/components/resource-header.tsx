import { Badge, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import type { Context } from '../../../api/context-types';
import type { ResourceRef } from '../../../api/context-uri';
import { AnchorLink } from '../../../components/links';
import { lastSegment } from '../terms';

/**
 * Breadcrumbs from the view's root to the resource, named as the service names them (`ancestors`, from
 * the view's index), the level-1 heading, its type and features.
 */
export function ResourceHeader({
  resource,
  viewName,
  context,
}: {
  resource: ResourceRef;
  viewName: string;
  context: Context;
}) {
  const iri = context.triple?.subject ?? resource.uri ?? '';
  const features = Object.entries(context.features).filter(([, on]) => on);
  const isRoot = context.ancestors.length === 0;
  return (
    <Stack gap="xs">
      <nav aria-label="Breadcrumbs">
        <Breadcrumbs separatorMargin={4} style={{ flexWrap: 'wrap', rowGap: 4 }}>
          {context.ancestors.map((ancestor, index) => (
            <AnchorLink
              key={ancestor.contextUri}
              size="sm"
              to="/views/$viewId/browse"
              params={{ viewId: String(resource.view.id) }}
              search={{ uri: index === 0 ? undefined : ancestor.contextUri, tx: resource.tx }}
              style={{ overflowWrap: 'anywhere' }}
            >
              {index === 0 ? viewName : ancestor.name}
            </AnchorLink>
          ))}
          <Text size="sm" aria-current="page" style={{ overflowWrap: 'anywhere' }}>
            {isRoot ? viewName : (context.name ?? lastSegment(iri))}
          </Text>
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
