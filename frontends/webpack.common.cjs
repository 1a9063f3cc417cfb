// Build settings every app in this workspace uses: TypeScript/TSX through swc, raw CSS imports, hashed chunks.

/** @param {{ mode: string }} options */
module.exports = function commonConfig({ mode }) {
  const production = mode === 'production';
  return {
    mode,
    devtool: production ? false : 'eval-cheap-module-source-map',
    resolve: { extensions: ['.tsx', '.ts', '.js'] },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          // Workspace packages are linked, so they resolve outside node_modules and are compiled too.
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                target: 'es2020',
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic', development: !production } },
              },
            },
          },
        },
        { resourceQuery: /raw/, type: 'asset/source' },
      ],
    },
    optimization: { moduleIds: 'deterministic', chunkIds: 'deterministic' },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
};
