// Entry of the kiro hook bundle: `node kiro.mjs [event]`.
import { main } from '../cli.js';

await main(['kiro', ...process.argv.slice(2)]);
