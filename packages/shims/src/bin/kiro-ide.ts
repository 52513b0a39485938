// Entry of the kiro-ide hook bundle: `node kiro-ide.mjs [event]`.
import { main } from '../cli.js';

await main(['kiro-ide', ...process.argv.slice(2)]);
