import { Box, Burger, Button, Container, Divider, Drawer, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, NavLink } from 'react-router';
import { getToken } from '../../lib/session';
import { PublicBrandLink } from './public-brand-link';
import classes from './public.module.css';

export const PUBLIC_NAV = [
  { to: '/pricing', label: 'Pricing' },
  { to: '/faq', label: 'FAQ' },
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
];

/** A signed-in visitor gets one way back to the console instead of Log in / Get Started. */
function HeaderActions({ onNavigate, stacked = false }: { onNavigate?: () => void; stacked?: boolean }) {
  const isSignedIn = !!getToken();
  if (isSignedIn) {
    return (
      <Button component={Link} to="/get-started" color="teal.9" onClick={onNavigate} fullWidth={stacked}>
        Open console
      </Button>
    );
  }
  return (
    <>
      <Button component={Link} to="/login" variant="subtle" color="dark" onClick={onNavigate} fullWidth={stacked}>
        Log in
      </Button>
      <Button component={Link} to="/register" color="teal.9" onClick={onNavigate} fullWidth={stacked}>
        Get Started
      </Button>
    </>
  );
}

export function PublicHeader() {
  const [isMenuOpen, menu] = useDisclosure(false);

  return (
    <Box component="header" className={classes.header}>
      <Container size="lg" h="100%">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <PublicBrandLink />

          <Group component="nav" aria-label="Main" gap={4} visibleFrom="md">
            {PUBLIC_NAV.map((item) => (
              <NavLink key={item.to} to={item.to} className={classes.navLink}>
                {item.label}
              </NavLink>
            ))}
          </Group>

          <Group gap="xs" visibleFrom="md" wrap="nowrap">
            <HeaderActions />
          </Group>

          <Burger
            hiddenFrom="md"
            opened={isMenuOpen}
            onClick={menu.toggle}
            aria-label={isMenuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={isMenuOpen}
            aria-controls="public-menu"
          />
        </Group>
      </Container>

      <Drawer
        id="public-menu"
        opened={isMenuOpen}
        onClose={menu.close}
        position="right"
        size="min(320px, 85vw)"
        title={<PublicBrandLink onClick={menu.close} />}
        hiddenFrom="md"
      >
        <Stack gap={4} component="nav" aria-label="Mobile">
          {PUBLIC_NAV.map((item) => (
            <NavLink key={item.to} to={item.to} className={classes.drawerLink} onClick={menu.close}>
              {item.label}
            </NavLink>
          ))}
        </Stack>
        <Divider my="md" />
        <Stack gap="sm">
          <HeaderActions onNavigate={menu.close} stacked />
        </Stack>
      </Drawer>
    </Box>
  );
}
