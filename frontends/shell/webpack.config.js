// Builds the shell (host) into dist/: index.html + main.js, served by the shop at /.
const fs = require('node:fs');
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { NormalModuleReplacementPlugin } = require('webpack');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const commonConfig = require('../webpack.common.cjs');
const sharedModules = require('../federation-shared.cjs');
const { dependencies } = require('./package.json');
const { MarquePreloadPlugin } = require('./scripts/preload-plugin.cjs');

// The design system's and the layout's styles go inline into the page head: no extra request, no flash.
const inlineCss = ['../packages/ui/src/ui.css', './src/features/layout/shell.css']
  .map((file) => fs.readFileSync(path.resolve(__dirname, file), 'utf8'))
  .join('\n');

module.exports = (_env, argv) => {
  const common = commonConfig({ mode: argv.mode ?? 'production' });
  return {
    ...common,
    // webpack minifies emitted HTML by default, which drops the <!--marque-head--> comment the server looks for.
    optimization: {
      ...common.optimization,
      minimizeOptions: { html: false },
      splitChunks: {
        cacheGroups: {
          default: false,
          defaultVendors: false,
          // The shared libraries the first render loads (React, the router, the shop's state packages) travel as one
          // chunk instead of one each: one request on the critical path instead of eight. Texts of other languages,
          // and lazy namespaces (`*.lazy.json` and the rules' `office.generated.ts`: the back office's), stay their own
          // chunks, loaded on demand.
          libraries: {
            name: 'libraries',
            chunks: 'async',
            test: (module) =>
              /[\\/](node_modules|packages)[\\/]/.test(module.resource ?? '') &&
              !/[\\/]locales[\\/](?!en)/.test(module.resource ?? '') &&
              !/\.lazy\.json$/.test(module.resource ?? '') &&
              !/[\\/]office\.generated\.ts$/.test(module.resource ?? ''),
            minSize: 0,
            enforce: true,
          },
        },
      },
    },
    entry: { main: './src/index.ts' },
    output: {
      path: path.resolve(__dirname, 'dist'),
      publicPath: '/',
      filename: '[name].js',
      chunkFilename: '[name].[contenthash:8].js',
      uniqueName: 'marque_shell',
      clean: true,
    },
    plugins: [
      // provideExternalRuntime injects its plugin by its CommonJS file, which drags in a CommonJS copy of the
      // federation runtime beside the ES module one the rest uses (+25 KB gzip). Use the ES module instead.
      new NormalModuleReplacementPlugin(/inject-external-runtime-core-plugin[\\/]dist[\\/]index\.cjs$/, (resource) => {
        resource.request = resource.request.replace(/index\.cjs$/, 'index.js');
      }),
      new HtmlWebpackPlugin({
        template: './public/index.html',
        templateParameters: { inlineCss },
        minify: false,
      }),
      new MarquePreloadPlugin(),
      new ModuleFederationPlugin({
        name: 'shell',
        // Remotes are registered at run time from /composition.json.
        remotes: {},
        shared: sharedModules(dependencies),
        // Use the shared modules already loaded instead of fetching every remote at start-up to compare
        // versions: the page starts without waiting for remotes, and a remote that is down cannot block it.
        shareStrategy: 'loaded-first',
        runtimePlugins: [require.resolve('./src/lib/remotes/fallback-plugin.ts')],
        dts: false,
        // Nothing consumes a host's manifest; only remotes publish one.
        manifest: false,
        // Lend this federation runtime to the remotes (built with externalRuntime) instead of each bundling one.
        experiments: { provideExternalRuntime: true, optimization: { target: 'web', disableSnapshot: true } },
      }),
    ],
    devServer: {
      historyApiFallback: true,
      port: 3000,
    },
  };
};
