// main.jsx — the page's entry point (bundled to public/app.js by
// scripts/build-web.mjs): reads the link the page was opened with and
// renders the app.

import { render } from 'preact';
import { App } from './App.jsx';
import { decodeFragment } from './url.js';

const root = document.getElementById('app');
const initial = decodeFragment(location.hash);
root.textContent = '';
render(<App initial={initial} />, root);
