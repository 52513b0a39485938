// The Chromium the viewer's tests and benchmark drive (through playwright-core): the
// system's, or CHROMIUM_PATH; headless, with nothing of its own talking to the network.

/** Chromium's executable. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Its command line: headless, no sandbox (containers), no background traffic. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
