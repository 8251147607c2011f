// @ts-check
const path = require('node:path');

const API_URL = process.env.NEXT_PUBLIC_API_URL ?? 'http://localhost:4000';

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,

  // 'standalone' makes `next build` emit a self-contained server in .next/standalone.
  // The Dockerfile copies only that plus the static assets, which took the web image
  // from ~1.1 GB (full node_modules) to ~180 MB and cut ECS cold starts (FG-233).
  output: 'standalone',

  experimental: {
    // monorepo: trace files from the repo root so packages/ui and packages/shared
    // end up inside the standalone output
    outputFileTracingRoot: path.join(__dirname, '../../'),
  },

  // ship the workspace packages as TypeScript source; Next compiles them
  transpilePackages: ['@ferngrove/ui', '@ferngrove/shared'],

  images: {
    remotePatterns: [
      // studio logos and class photos uploaded by staff
      { protocol: 'https', hostname: 'cdn.ferngrove.example.com', pathname: '/studio-media/**' },
      // member avatars, still served straight from the uploads bucket's domain
      { protocol: 'https', hostname: 'uploads.ferngrove.example.com' },
    ],
  },

  async redirects() {
    return [
      // marketing pages live on the website, not in the app
      { source: '/pricing', destination: 'https://www.ferngrove.example.com/pricing', permanent: true },
      // old links from 2024 emails
      { source: '/classes', destination: '/schedule', permanent: true },
      { source: '/classes/:id', destination: '/schedule?session=:id', permanent: true },
    ];
  },

  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
        ],
      },
    ];
  },

  async rewrites() {
    // Local dev only: the browser calls /api/* on the web origin and Next proxies it to the
    // api, so the auth cookies are first-party. In staging/prod the ALB routes by host.
    if (process.env.NODE_ENV !== 'development') return [];
    return [{ source: '/api/:path*', destination: `${API_URL}/:path*` }];
  },
};

module.exports = nextConfig;
