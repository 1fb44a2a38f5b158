// The types of dist/ui/screen.bundle.js, which scripts/bundle-ui.mjs builds from screen.tsx.
export * from './screen.js';
