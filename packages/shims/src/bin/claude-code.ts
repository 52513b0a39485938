// Entry of the claude-code hook bundle: `node claude-code.mjs [event]`.
import { main } from '../cli.js';

await main(['claude-code', ...process.argv.slice(2)]);
