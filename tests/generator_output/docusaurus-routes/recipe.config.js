// The documented recipe (docs/cli.md): the same site with Docusaurus' own sitemap turned off.
import config from './docusaurus.config.js';

const [[name, options], ...rest] = config.presets;
export default {...config, presets: [[name, {...options, sitemap: false}], ...rest]};
