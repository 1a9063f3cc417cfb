// Writes into the shell's index.html a <link rel="preload"> for every chunk the first render needs, so the browser
// fetches them with the page instead of one after another: the bootstrap chunk (the async boundary after the entry)
// and the fallback chunks of the shared modules it consumes (React, the router, the shop's state packages), found
// by walking the chunk graph. Chunks loaded later on demand (static pages, Hindi texts) are left out.
const HtmlWebpackPlugin = require('html-webpack-plugin');

const NAME = 'MarquePreloadPlugin';

/**
 * Files of the chunk groups a first render loads. A shared module is loaded from the chunk that *provides* it to the
 * share scope (the shell lends its own versions, `loaded-first`), so a consumed key is followed to its provider.
 */
function firstRenderFiles(compilation) {
  const { chunkGraph } = compilation;
  const providers = new Map();
  for (const module of compilation.modules) {
    if (module.type === 'provide-module') providers.set(module._name, [...(providers.get(module._name) ?? []), module]);
  }
  const files = new Set();
  const seen = new Set();
  const visit = (group) => {
    if (!group || seen.has(group)) return;
    seen.add(group);
    for (const chunk of group.chunks) {
      for (const file of chunk.files) if (file.endsWith('.js')) files.add(file);
      for (const module of chunkGraph.getChunkModulesIterable(chunk)) {
        if (module.type !== 'consume-shared-module') continue;
        for (const provider of providers.get(module.options.shareKey) ?? []) {
          for (const block of provider.blocks) visit(chunkGraph.getBlockChunkGroup(block));
        }
      }
    }
  };
  const main = compilation.namedChunkGroups.get('main');
  for (const chunk of main.chunks) {
    // The entry's own `import('./bootstrap')`.
    for (const module of chunkGraph.getChunkModulesIterable(chunk)) {
      if (!module.resource || !/[\\/]src[\\/]index\.ts$/.test(module.resource)) continue;
      for (const block of module.blocks) visit(chunkGraph.getBlockChunkGroup(block));
    }
  }
  for (const chunk of main.chunks) for (const file of chunk.files) files.delete(file);
  return [...files];
}

class MarquePreloadPlugin {
  apply(compiler) {
    compiler.hooks.compilation.tap(NAME, (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap(NAME, (groups) => {
        const publicPath = compilation.outputOptions.publicPath === 'auto' ? '/' : compilation.outputOptions.publicPath;
        const links = firstRenderFiles(compilation).map((file) => ({
          tagName: 'link',
          voidTag: true,
          meta: { plugin: NAME },
          attributes: { rel: 'preload', as: 'script', href: `${publicPath}${file}` },
        }));
        groups.headTags.push(...links);
        return groups;
      });
    });
  }
}

module.exports = { MarquePreloadPlugin, firstRenderFiles };
