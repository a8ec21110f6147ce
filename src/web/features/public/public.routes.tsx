import type { RouteObject } from 'react-router';
import { HomePage } from './home-page';
import { PublicLayout } from './public-layout';

/**
 * The public routes: /, /faq, /pricing, /about, /contact, all inside the public header and footer. The layout
 * and the home page come with the first download (most visitors land there); the other pages load on first visit.
 */
export const publicRoutes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'faq', lazy: async () => ({ Component: (await import('./faq-page')).FaqPage }) },
      { path: 'about', lazy: async () => ({ Component: (await import('./about-page')).AboutPage }) },
      { path: 'contact', lazy: async () => ({ Component: (await import('./contact-page')).ContactPage }) },
      { path: 'pricing', lazy: async () => ({ Component: (await import('./pricing-page')).PricingPage }) },
    ],
  },
];
