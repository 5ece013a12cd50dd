import { startSignedInReads } from './app/signed-in-reads';
import { tokenStorage } from './lib/token-storage';

// Imported first by main.tsx, and light (no React, no router, no schemas): it runs as soon as the
// entry's code is loaded, before most of it (React's renderer, the app, the schemas) is evaluated,
// which takes a good part of the page's start on a modest machine. The server's answers are the
// slowest part of a signed-in page's opening: the earlier they leave, the sooner it is drawn.
startSignedInReads(window.location.pathname, tokenStorage.get());
