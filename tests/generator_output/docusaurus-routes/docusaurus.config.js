// Docs-only mode with the folders renamed, as many product manuals have it: the docs plugin
// reads guides/ and serves it at the root (routeBasePath: '/', the home page is the doc whose
// slug is /), the blog reads news/ and serves it under /updates; a second docs plugin
// instance reads community/ and serves it under /community.
export default {
  title: 'Routes',
  url: 'https://docusaurus-routes.example',
  baseUrl: '/',
  onBrokenLinks: 'warn',
  presets: [
    [
      'classic',
      {
        docs: {
          path: 'guides',
          routeBasePath: '/',
        },
        blog: {
          path: "news",
          routeBasePath: "updates",
          showReadingTime: false,
          feedOptions: {type: null},
        },
      },
    ],
  ],
  plugins: [
    [
      '@docusaurus/plugin-content-docs',
      {
        id: 'community',
        path: 'community',
        routeBasePath: 'community',
      },
    ],
  ],
};
