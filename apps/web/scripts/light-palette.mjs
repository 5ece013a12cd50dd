#!/usr/bin/env node
/**
 * Writes src/styles/light-palette.css: the signed-in app's light theme, made by remapping
 * Tailwind's palette variables rather than by a second set of classes on every element.
 *
 * Every screen was drawn for a dark page: light text (slate-100…400, cyan-200…300), dark
 * surfaces (slate-800…950), white headings and white/5 veils. Under `[data-theme='light']` each
 * shade takes the value of its mirror, so the same classes give dark text on a light page with
 * the same contrast, and `bg-white/5` becomes a faint dark veil. Two adjustments keep it calm
 * and readable rather than a photographic negative:
 * - the grey family puts the page on slate-100 and the cards (slate-900/…) on white;
 * - colours lean darker (300 and 400 → 800 and 700): a cyan or amber 400 on white falls below
 *   4,5:1, its 700 does not.
 *
 * `[data-theme='dark']` inside a light page (the error pages, which keep their own look) puts
 * the original values back. Run `node scripts/light-palette.mjs` after a Tailwind upgrade.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const themeCss = readFileSync(path.join(path.dirname(require.resolve('tailwindcss/package.json')), 'theme.css'), 'utf8');

const palette = new Map();
for (const match of themeCss.matchAll(/--color-([a-z]+)-(\d+):\s*([^;]+);/g)) {
  if (!palette.has(match[1])) palette.set(match[1], new Map());
  palette.get(match[1]).set(Number(match[2]), match[3].trim());
}

/** The families the app uses; the others keep their values. */
const GREYS = ['slate'];
const COLOURS = [
  'cyan',
  'violet',
  'fuchsia',
  'red',
  'amber',
  'emerald',
  'sky',
  'rose',
  'teal',
  'orange',
  'yellow',
  'green',
  'blue',
  'indigo',
  'lime',
  'pink',
  'purple',
];

// Shade on the dark page → shade (or literal) it reads as on the light one.
const greyMap = { 50: 950, 100: 900, 200: 800, 300: 700, 400: 600, 500: 500, 600: 300, 700: 200, 800: 50, 900: '#fff', 950: 100 };
const colourMap = { 50: 950, 100: 900, 200: 800, 300: 800, 400: 700, 500: 600, 600: 500, 700: 300, 800: 200, 900: 100, 950: 50 };

function block(families, mapping) {
  const lines = [];
  for (const family of families) {
    const shades = palette.get(family);
    if (!shades) throw new Error(`Tailwind has no ${family} palette`);
    for (const [shade, target] of Object.entries(mapping)) {
      const value = typeof target === 'string' ? target : shades.get(target);
      lines.push(`  --color-${family}-${shade}: ${value};`);
    }
  }
  return lines;
}

function original(families) {
  const lines = [];
  for (const family of families) for (const [shade, value] of palette.get(family)) lines.push(`  --color-${family}-${shade}: ${value};`);
  return lines;
}

const out = [
  '/* Written by scripts/light-palette.mjs; do not edit by hand. */',
  '',
  "[data-theme='light'] {",
  '  color-scheme: light;',
  `  --color-white: ${palette.get('slate').get(950)};`,
  '  --color-black: #fff;',
  ...block(GREYS, greyMap),
  ...block(COLOURS, colourMap),
  '}',
  '',
  "[data-theme='light'] [data-theme='dark'] {",
  '  color-scheme: dark;',
  '  --color-white: #fff;',
  '  --color-black: #000;',
  ...original([...GREYS, ...COLOURS]),
  '}',
  '',
];
writeFileSync(path.join(here, '..', 'src', 'styles', 'light-palette.css'), out.join('\n'));
