// Build settings of every remote: remoteEntry.js + mf-manifest.json in <remote>/dist, served by the shop at
// /remotes/<name>/, sharing the singletons of federation-shared.cjs and borrowing the shell's federation runtime.
const path = require('node:path');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const commonConfig = require('./webpack.common.cjs');
const sharedModules = require('./federation-shared.cjs');

/**
 * @param {{ name: string, dir: string, exposes: Record<string, string>, mode?: string }} remote
 *   the remote's name, its folder, what it exposes ('./Home' → file) and the build mode
 */
module.exports = function remoteConfig({ name, dir, exposes, mode = 'production' }) {
  const { dependencies } = require(path.join(dir, 'package.json'));
  const common = commonConfig({ mode });
  return {
    ...common,
    entry: {},
    output: {
      path: path.resolve(dir, 'dist'),
      // Chunks load from wherever remoteEntry.js came from, so the remote can move to another origin or path.
      publicPath: 'auto',
      filename: '[name].js',
      chunkFilename: '[name].[contenthash:8].js',
      uniqueName: `marque_${name}`,
      clean: true,
    },
    optimization: {
      ...common.optimization,
      // Each exposed module travels as one chunk with everything it needs (no chunks split off and shared between
      // exposes): a page loads one or two exposes of a remote, so fewer requests on its critical path matter more
      // than the few kilobytes two exposes of one page may both carry.
      splitChunks: { cacheGroups: { default: false, defaultVendors: false } },
    },
    plugins: [
      new ModuleFederationPlugin({
        name,
        filename: 'remoteEntry.js',
        exposes,
        shared: sharedModules(dependencies),
        dts: false,
        manifest: true,
        // Use the federation runtime the shell already loaded instead of bundling a second copy.
        experiments: { externalRuntime: true, optimization: { target: 'web' } },
      }),
    ],
  };
};
