import { Box, Button, Card, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { getToken } from '../../lib/session';
import { withReturnPath } from '../../lib/return-path';
import { rememberCloneIntent } from '../templates/template-clone-request';
import { useFeaturedTemplates } from '../templates/use-featured-templates';
import { TemplateFlag } from '../templates/template-card';
import { templateClonePath, templateEmulatorPath } from '../../lib/paths';

/**
 * SLOT: the 'Things you can build' template gallery on the public home page.
 * It renders nothing until GET /featuredTemplates answers '00' with at least one template: no placeholder
 * or invented templates are ever shown. Test Run opens the template emulator. Clone opens the template's clone
 * dialog on the templates page; signed out, it goes there through registration (or sign-in), and the clone then
 * goes ahead by itself and lands on the copy's designer.
 */
export function FeaturedTemplateGallery() {
  const { data: templates = [] } = useFeaturedTemplates();
  if (templates.length === 0) return null;
  const isSignedIn = !!getToken();

  return (
    <Box component="section" aria-labelledby="templates-heading" py={{ base: 56, sm: 88 }}>
      <Container size="lg">
        <Title id="templates-heading" order={2} ta="center" fz={{ base: 28, sm: 36 }}>
          Things you can build
        </Title>
        <Text ta="center" c="gray.7" mt="sm" mb={40} size="lg">
          Start from a working app, try it in the emulator, then make it yours.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
          {templates.map((template) => (
            <Card key={template.appId} withBorder radius="lg" padding="lg" component="article">
              <Stack gap="sm" h="100%">
                <Group gap="sm" wrap="nowrap">
                  <TemplateFlag template={template} />
                  <Title order={3} fz="lg" lineClamp={2} title={template.appName} style={{ minWidth: 0, overflowWrap: 'break-word' }}>
                    {template.appName}
                  </Title>
                </Group>
                <Text c="gray.7" size="sm" style={{ flex: 1 }}>
                  {template.description}
                </Text>
                <Group gap="sm">
                  <Button
                    component={Link}
                    to={templateEmulatorPath(template.appId, '/')}
                    color="teal.9"
                    aria-label={`Test Run ${template.appName}`}
                  >
                    Test Run
                  </Button>
                  <Button
                    component={Link}
                    to={isSignedIn ? templateClonePath(template.appId) : withReturnPath('/register', templateClonePath(template.appId))}
                    onClick={isSignedIn ? undefined : () => rememberCloneIntent(template.appId)}
                    variant="default"
                    aria-label={`Clone ${template.appName}`}
                  >
                    Clone
                  </Button>
                </Group>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
