import {
  Anchor,
  Button,
  NavLink,
  type AnchorProps,
  type ButtonProps,
  type NavLinkProps,
} from '@mantine/core';
import { createLink, type LinkComponent } from '@tanstack/react-router';
import { forwardRef } from 'react';

/**
 * Mantine's link-like components as typed router links (`to` and `params` checked against the route
 * tree): Mantine's `component={Link}` loses the router's types.
 */
const AnchorBase = forwardRef<HTMLAnchorElement, AnchorProps & React.AnchorHTMLAttributes<HTMLAnchorElement>>(
  (props, ref) => <Anchor ref={ref} {...props} />,
);
AnchorBase.displayName = 'AnchorBase';
const AnchorLinkCreated = createLink(AnchorBase);
export const AnchorLink: LinkComponent<typeof AnchorBase> = (props) => (
  <AnchorLinkCreated preload="intent" {...props} />
);

const ButtonBase = forwardRef<HTMLAnchorElement, ButtonProps & React.AnchorHTMLAttributes<HTMLAnchorElement>>(
  (props, ref) => <Button ref={ref} component="a" {...props} />,
);
ButtonBase.displayName = 'ButtonBase';
const ButtonLinkCreated = createLink(ButtonBase);
export const ButtonLink: LinkComponent<typeof ButtonBase> = (props) => (
  <ButtonLinkCreated preload="intent" {...props} />
);

const NavLinkBase = forwardRef<
  HTMLAnchorElement,
  NavLinkProps & React.AnchorHTMLAttributes<HTMLAnchorElement>
>((props, ref) => <NavLink ref={ref} component="a" {...props} />);
NavLinkBase.displayName = 'NavLinkBase';
const NavLinkCreated = createLink(NavLinkBase);
export const NavLinkRouted: LinkComponent<typeof NavLinkBase> = (props) => (
  <NavLinkCreated preload="intent" {...props} />
);
