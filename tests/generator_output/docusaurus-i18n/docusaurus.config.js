// A site in English and French, as web-map-doc (Maps4HTML) has it: docs translated in
// i18n/fr/docusaurus-plugin-content-docs/current/ (one doc left untranslated), a translated
// blog post, and a demo page in static/ (copied into / and /fr/).
export default {
  title: 'Two languages',
  url: 'https://docusaurus-i18n.example',
  baseUrl: '/',
  onBrokenLinks: 'warn',
  i18n: {
    defaultLocale: 'en',
    locales: ['en', 'fr'],
  },
  presets: [
    [
      'classic',
      {
        docs: {},
        blog: {showReadingTime: false, feedOptions: {type: null}},
      },
    ],
  ],
};
